// extension/tools/shared/file_name.js: the name download_file saves under is a bare,
// harmless file name whatever the page or the model suggested.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { sanitizeFileName } from '../../extension/tools/shared/file_name.js';

describe('sanitizeFileName', () => {
  it('keeps a plain name as it is', () => {
    assert.equal(sanitizeFileName('report.pdf'), 'report.pdf');
    assert.equal(sanitizeFileName('Report Q3.PDF'), 'Report Q3.PDF');
    assert.equal(sanitizeFileName('console.log'), 'console.log');
  });

  it('drops directories, with either slash', () => {
    assert.equal(sanitizeFileName('a/b/c.txt'), 'c.txt');
    assert.equal(sanitizeFileName('C:\\Users\\x\\c.txt'), 'c.txt');
    assert.equal(sanitizeFileName('../../etc/passwd'), 'passwd');
    assert.equal(sanitizeFileName('dir/'), 'download');
  });

  it('replaces control and reserved characters', () => {
    assert.equal(sanitizeFileName('a<b>:c"d|e?f*g\u0001h\u007f.txt'), 'a_b__c_d_e_f_g_h_.txt');
    assert.equal(sanitizeFileName('line\nbreak.txt'), 'line_break.txt');
  });

  it('strips leading dots and spaces (no hidden files) and trailing ones', () => {
    assert.equal(sanitizeFileName('.bashrc'), 'bashrc');
    assert.equal(sanitizeFileName('  ..hidden. '), 'hidden');
    assert.equal(sanitizeFileName('foo.'), 'foo');
  });

  it('names an empty or missing name "download"', () => {
    for (const raw of ['', '   ', '...', null, undefined]) assert.equal(sanitizeFileName(raw), 'download', String(raw));
  });

  it('prefixes Windows device names', () => {
    assert.equal(sanitizeFileName('CON'), '_CON');
    assert.equal(sanitizeFileName('con.txt'), '_con.txt');
    assert.equal(sanitizeFileName('com1.log'), '_com1.log');
    assert.equal(sanitizeFileName('LPT9'), '_LPT9');
    assert.equal(sanitizeFileName('prn'), '_prn');
    assert.equal(sanitizeFileName('contact.txt'), 'contact.txt');
  });

  it('neutralises types that run code, whatever their case', () => {
    assert.equal(sanitizeFileName('setup.exe'), 'setup.exe.download');
    assert.equal(sanitizeFileName('SETUP.EXE'), 'SETUP.EXE.download');
    assert.equal(sanitizeFileName('run.sh'), 'run.sh.download');
    assert.equal(sanitizeFileName('x.tar.gz'), 'x.tar.gz');
    assert.equal(sanitizeFileName('..\\evil.exe'), 'evil.exe.download');
  });

  it('cuts a long name to 150 characters, keeping a short extension', () => {
    const long = sanitizeFileName(`${'x'.repeat(300)}.pdf`);
    assert.equal(long.length, 150);
    assert.ok(long.endsWith('.pdf'));
    const noExt = sanitizeFileName('y'.repeat(300));
    assert.equal(noExt, 'y'.repeat(150));
    const longExt = sanitizeFileName(`a.${'e'.repeat(300)}`);
    assert.equal(longExt.length, 150);
    const dangerous = sanitizeFileName(`${'z'.repeat(300)}.exe`);
    assert.equal(dangerous, `${'z'.repeat(146)}.exe.download`);
  });
});
