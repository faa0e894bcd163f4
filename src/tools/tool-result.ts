/** Builders for the compact JSON results tools return to models. */
export const toolResult = {
  /** `{"status":"ok",...fields}` as compact JSON. */
  ok(fields: Record<string, unknown> = {}): string {
    return JSON.stringify({ status: 'ok', ...fields });
  },
  /** `{"status":"error","error":message,...extra}` as compact JSON. */
  error(message: string, extra: Record<string, unknown> = {}): string {
    return JSON.stringify({ status: 'error', error: message, ...extra });
  },
  /** A result with a documented non-ok status (`exhausted`, `partial`, `pending`). */
  status(status: string, fields: Record<string, unknown> = {}): string {
    return JSON.stringify({ status, ...fields });
  },
};
