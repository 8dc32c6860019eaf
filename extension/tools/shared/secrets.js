// Password values stay out of what the model reads (issue 9). The page side
// never hands them out (page/agent/states.js shows a password field's value as dots,
// read_page masks them); this masks the ones the agent itself typed into a
// password field, and those a form tool found in the form's secret fields,
// wherever the page may echo them back within the same call: in a GET
// form's URL, a validation message, a live region.

export const MASK = '•••';

// Masks every secret of the set in the result's text blocks, as typed and as
// a URL or JSON would spell it. Only the text: _meta (the URL the host checks
// against the policy) is left whole, as a masked host name would be another site.
// `params`: names of secret form fields — their values in a URL's query
// (`?pin=…`, a GET form's) are masked whatever they are (also one too short
// to mask as text: it would mask every other "12" of the answer).
export function maskSecrets(r, secrets, params) {
  if ((!secrets?.size && !params?.size) || !r?.content) return r;
  const forms = [];
  for (const v of secrets ?? []) {
    forms.push(v, encodeURIComponent(v), new URLSearchParams({ v }).toString().slice(2), JSON.stringify(v).slice(1, -1));
  }
  // Longest first: a shorter form may be part of a longer one.
  const uniq = [...new Set(forms)].filter(Boolean).sort((a, b) => b.length - a.length);
  const inQuery = [...(params ?? [])].filter(Boolean).map((name) => {
    const spelled = [...new Set([name, encodeURIComponent(name), new URLSearchParams({ [name]: '' }).toString().slice(0, -1)])];
    const names = spelled.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    return new RegExp(`([?&](?:${names})=)[^&#\\s"'<>]*`, 'g');
  });
  for (const block of r.content) {
    if (block.type !== 'text') continue;
    for (const f of uniq) block.text = block.text.split(f).join(MASK);
    for (const re of inQuery) block.text = block.text.replace(re, `$1${MASK}`);
  }
  return r;
}
