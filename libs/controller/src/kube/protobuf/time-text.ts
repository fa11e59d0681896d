const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const secondsPerDay = 86_400;
const slots = 256;
/** Direct-mapped by the low bits of the second: objects share timestamps, so most lookups hit; a miss costs ~25 ns. */
const slotSeconds = new Array<number>(slots).fill(Number.NaN);
const slotTexts = new Array<string>(slots).fill('');
const lastDay = { day: Number.NaN, prefix: '' };

/**
 * A Unix second as RFC 3339 in UTC without the zone ("2026-12-02T03:47:12"), as metav1.Time marshals it, for years
 * 0000–9999. `Date#toISOString` takes ~450 ns a call, and a watch event carries a timestamp per managedFields entry.
 */
export function secondsText(seconds: number): string {
  const slot = seconds & (slots - 1);
  if (slotSeconds[slot] === seconds) return slotTexts[slot]!;
  const day = Math.floor(seconds / secondsPerDay);
  if (day !== lastDay.day) {
    lastDay.day = day;
    lastDay.prefix = new Date(day * secondsPerDay * 1000).toISOString().slice(0, 11);
  }
  const inDay = seconds - day * secondsPerDay;
  const text = `${lastDay.prefix}${twoDigits[Math.floor(inDay / 3600)]}:${twoDigits[Math.floor(inDay / 60) % 60]}:${twoDigits[inDay % 60]}`;
  slotSeconds[slot] = seconds;
  slotTexts[slot] = text;
  return text;
}
