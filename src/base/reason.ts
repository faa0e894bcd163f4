/** A short reason for a failure that arrived as an unknown thrown value: an Error's message, else its text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The thrown value as an Error: itself when it is one, else an Error whose message is its text. */
export function errorOf(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
