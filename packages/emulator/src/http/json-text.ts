/**
 * A response body that is JSON text already (a list page of stored summaries): sent as is, so
 * a page of 100 summaries is not parsed and serialised again on every request. `toJSON` keeps
 * it usable wherever a body is serialised as a value (retry-token records).
 */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
