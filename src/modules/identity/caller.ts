/** Who is calling, as authentication established it (src/server/authentication.ts). */
export interface Caller {
  /** The principal of the request's API key. */
  principal: { id: string; name: string; kind: string; admin: boolean; actsForOthers: boolean } | null;
  /** The database id of the API key sent (rate limits count per key); absent without one. */
  keyId?: string;
  /** Protected mode: no key exists yet and the request came from this machine; it acts as an admin. */
  local: boolean;
  /** AUTH=off: no authentication, for a trusted network. */
  unchecked: boolean;
}
