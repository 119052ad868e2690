import PDFDocument from 'pdfkit';
import { addDecimal, groupThousands } from '@portal/contract/decimal';

/** A statement's lines, as the CSV and the PDF show them (two decimals, debits and credits unsigned). */
export type StatementData = {
  from: string;
  to: string;
  opening: string;
  closing: string;
  lines: { at: string; description: string; reference: string; debit: string; credit: string; balance: string }[];
};

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const INK = '#0f172a';
const MUTED = '#64748b';
const LINE = '#e2e8f0';
const BRAND = '#134e4a';
/** The table's columns: where each starts, how wide it is, and how its text sits. */
const COLUMNS = [
  { title: 'Date (UTC)', width: 84, align: 'left' },
  { title: 'Description', width: 114, align: 'left' },
  { title: 'Reference', width: 111, align: 'left' },
  { title: 'Debit', width: 62, align: 'right' },
  { title: 'Credit', width: 62, align: 'right' },
  { title: 'Balance', width: 66, align: 'right' },
] as const;
const CELL_PAD = 4;
const FONT_SIZE = 7.5;

/** "2026-11-01" as "1 Nov 2026". */
function dayText(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(Date.UTC(y!, m! - 1, d));
}
const money = (v: string) => (v ? groupThousands(v) : '');

/**
 * The statement as an A4 PDF: the partner and the period (UTC days) at the top, a summary (opening, credits, debits,
 * closing), the lines with their running balance under a header repeated on every page, the totals, and "Page n of m"
 * at the foot of each page. Built in memory (a PDF statement holds at most STATEMENT_PDF_MAX_ENTRIES lines), yielding
 * to the event loop every 40 lines.
 */
export async function renderStatementPdf(s: StatementData & { currency: string; partnerName: string; generatedAt: Date }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `${s.currency} statement ${s.from} to ${s.to}`,
      Author: s.partnerName,
      Subject: `${s.partnerName} ${s.currency} statement`,
      CreationDate: s.generatedAt,
      ModDate: s.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const right = A4.width - MARGIN;
  const bottom = A4.height - MARGIN - 18;
  let totalDebits = '0';
  let totalCredits = '0';
  for (const l of s.lines) {
    if (l.debit) totalDebits = addDecimal(totalDebits, l.debit, 2);
    if (l.credit) totalCredits = addDecimal(totalCredits, l.credit, 2);
  }

  // heading
  doc
    .fillColor(BRAND)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(s.partnerName, left, MARGIN, { width: right - left });
  doc.moveDown(0.2).fillColor(INK).font('Helvetica').fontSize(12).text(`${s.currency} statement`);
  doc
    .moveDown(0.3)
    .fillColor(MUTED)
    .fontSize(9)
    .text(`${dayText(s.from)} to ${dayText(s.to)}, whole days in UTC. All amounts in ${s.currency}.`)
    .text(`Generated ${s.generatedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`);

  // summary
  let y = doc.y + 12;
  const summary = [
    ['Opening balance', s.opening],
    ['Total credits', totalCredits],
    ['Total debits', totalDebits],
    ['Closing balance', s.closing],
  ] as const;
  const boxWidth = (right - left) / summary.length;
  summary.forEach(([label, value], i) => {
    const x = left + i * boxWidth;
    doc
      .roundedRect(x + (i ? 4 : 0), y, boxWidth - 4, 44, 4)
      .strokeColor(LINE)
      .lineWidth(0.8)
      .stroke();
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(label, x + 12, y + 9, { width: boxWidth - 24 });
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`${s.currency} ${money(value)}`, x + 12, y + 22, { width: boxWidth - 24 });
  });
  y += 60;

  const header = (top: number) => {
    doc.rect(left, top, right - left, 18).fill('#f1f5f9');
    let x = left;
    doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(7.5);
    for (const c of COLUMNS) {
      const title = c.align === 'right' ? `${c.title} (${s.currency})` : c.title;
      doc.text(title, x + CELL_PAD, top + 5.5, { width: c.width - 2 * CELL_PAD, align: c.align, lineBreak: false });
      x += c.width;
    }
    return top + 18;
  };
  const row = (top: number, cells: readonly string[], bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
    const heights = cells.map((text, i) => doc.heightOfString(text || ' ', { width: COLUMNS[i]!.width - 2 * CELL_PAD }));
    const height = Math.max(...heights) + 2 * CELL_PAD;
    return {
      height,
      draw: () => {
        let x = left;
        cells.forEach((text, i) => {
          const c = COLUMNS[i]!;
          doc.fillColor(i === 2 ? MUTED : INK).text(text, x + CELL_PAD, top + CELL_PAD, { width: c.width - 2 * CELL_PAD, align: c.align });
          x += c.width;
        });
        doc
          .moveTo(left, top + height)
          .lineTo(right, top + height)
          .strokeColor(LINE)
          .lineWidth(0.5)
          .stroke();
      },
    };
  };
  const place = (cells: readonly string[], bold = false) => {
    let r = row(y, cells, bold);
    if (y + r.height > bottom) {
      doc.addPage();
      y = header(MARGIN);
      r = row(y, cells, bold);
    }
    r.draw();
    y += r.height;
  };

  y = header(y);
  place([`${s.from} 00:00:00`, 'Opening balance', '', '', '', money(s.opening)], true);
  for (const [i, l] of s.lines.entries()) {
    place([l.at, l.description, l.reference, money(l.debit), money(l.credit), money(l.balance)]);
    // drawing is synchronous: let the server answer other requests between pages' worth of lines
    if (i % 40 === 39) await new Promise((resolve) => setImmediate(resolve));
  }
  place([`${s.to} 23:59:59`, 'Closing balance', '', '', '', money(s.closing)], true);
  place(['', `Totals (${s.lines.length} ${s.lines.length === 1 ? 'entry' : 'entries'})`, '', money(totalDebits), money(totalCredits), ''], true);
  if (s.lines.length === 0) {
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text('No money moved in this period.', left, y + 10);
  }

  // the foot of every page
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    // the foot sits in the bottom margin: without it, the text would be put on a page of its own
    doc.page.margins.bottom = 0;
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(7.5)
      .text(`${s.partnerName} · ${s.currency} statement ${s.from} to ${s.to}`, left, A4.height - MARGIN, { width: 360, lineBreak: false })
      .text(`Page ${i + 1} of ${range.count}`, right - 120, A4.height - MARGIN, { width: 120, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}
