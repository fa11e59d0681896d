/** Text as a regular expression that matches exactly it (AFD RegEx conditions, generated patterns). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
