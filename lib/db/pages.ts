/** Rows read per query by the loaders that read whole tables: Prisma turns a result into objects in one go on the
 * thread that answers requests, and 45,000 records at once held it for over a second. */
export const PAGE_ROWS = 5000;

/** A whole table read in id order, a page at a time (each page's rows follow the last id of the one before). */
export async function inPages<T extends { id: string }>(page: (after: string | null) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let after: string | null = null; ; ) {
    const rows = await page(after);
    for (const r of rows) out.push(r);
    if (rows.length < PAGE_ROWS) return out;
    after = rows[rows.length - 1].id;
  }
}
