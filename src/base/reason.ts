/** A short reason for a failure that arrived as an unknown thrown value: an Error's message, else its text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
