/** A table's column list under its alias, for a statement that joins (`d.id`, `d.status`, …). */
export const qualified = <A extends string, C extends string>(alias: A, columns: readonly C[]) => columns.map((column) => `${alias}.${column}` as `${A}.${C}`);
