import zlib from 'node:zlib';

/**
 * The text a PDF shows, page by page, read from its content streams (deflated, text in hex strings as the standard
 * fonts are written): enough to check what a statement says, not a general PDF reader.
 */
export function pdfText(pdf: Buffer): { pages: number; text: string } {
  const raw = pdf.toString('latin1');
  const pages = (raw.match(/\/Type \/Page\b/g) ?? []).length;
  const parts: string[] = [];
  const stream = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = stream.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1');
    } catch {
      continue; // not a deflated stream (a font, an image)
    }
    // each shown string: <hex> inside TJ arrays, and (literal) strings
    for (const line of content.split('\n')) {
      if (!/T[Jj]\s*$/.test(line)) continue;
      const hex = [...line.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join('');
      const literal = [...line.matchAll(/\(((?:\\.|[^\\)])*)\)/g)].map((l) => l[1]!.replace(/\\(.)/g, '$1')).join('');
      parts.push(hex + literal);
    }
    stream.lastIndex = end;
  }
  return { pages, text: parts.join('\n') };
}
