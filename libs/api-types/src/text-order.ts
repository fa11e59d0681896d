/** Code-point order, independent of locale, so that every sort of names is reproducible on any machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
