// Puts host -> extension `chunk` notifications back together (docs/protocol.md
// §1). The host never interleaves chunks with other frames, so one partial
// message at a time is all there is; one assembler lives per port.

const isIndex = (n) => Number.isInteger(n) && n >= 0;

export class ChunkAssembler {
  #partial = null; // {id, count, parts: string[]}

  // Feeds one chunk's params. Returns the whole message's JSON text once the
  // last chunk is in, else null. A chunk out of order (or malformed) discards
  // the partial message; an index-0 chunk always starts a new one.
  push(params) {
    const { id, index, count, data } = params ?? {};
    if (!isIndex(index) || !isIndex(count) || index >= count || typeof data !== 'string') {
      this.#discard('malformed chunk');
      return null;
    }
    if (index === 0) {
      if (this.#partial) this.#discard(`chunked message ${id} began early`);
      this.#partial = { id, count, parts: [] };
    } else {
      const p = this.#partial;
      if (!p || p.id !== id || p.count !== count || p.parts.length !== index) {
        this.#discard(`chunk ${id}[${index}/${count}] out of order`);
        return null;
      }
    }
    const p = this.#partial;
    p.parts.push(data);
    if (p.parts.length < p.count) return null;
    this.#partial = null;
    return p.parts.join('');
  }

  #discard(why) {
    const lost = this.#partial ? `; dropped partial message ${this.#partial.id}` : '';
    console.info(`tabbridge: ${why}${lost}`);
    this.#partial = null;
  }
}
