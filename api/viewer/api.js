// Reading Herald's public API: JSON and SVG with the reader's bearer token when one is set
// (the server decides what a role may see), every page of a stream's events, and problems
// (RFC 9457) turned into errors with their detail.

const TOKEN_KEY = 'herald.viewer.token';

/** The bearer token the reader entered (kept for this tab only). */
export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY) ?? '',
  set: (value) => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY)),
};

/** An error answer from the API. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code ?? null;
  }
}

function headers(accept) {
  const h = { Accept: accept };
  const t = token.get();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

async function request(path, accept, options = {}) {
  const response = await fetch(path, { headers: headers(accept), signal: options.signal });
  if (!response.ok) {
    let problem = null;
    try { problem = await response.json(); } catch { /* not a problem document */ }
    throw new ApiError(response.status, problem);
  }
  return response;
}

/** GET a JSON document. */
export async function getJSON(path, options) {
  return (await request(path, 'application/json', options)).json();
}

/**
 * Every item of a paged list (`/v1/battles`, `/v1/campaigns`, …), following its
 * `Link: <…>; rel="next"` headers page by page (docs/API.md "Paging").
 */
export async function getAll(path, options) {
  const items = [];
  let next = path;
  while (next) {
    const response = await request(next, 'application/json', options);
    items.push(...(await response.json()));
    next = /<([^>]*)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1] ?? null;
  }
  return items;
}

/** One page of a paged list and the `Link: rel="next"` target, if there is a next page. */
export async function getPage(path, options) {
  const response = await request(path, 'application/json', options);
  const items = await response.json();
  const next = /<([^>]*)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1] ?? null;
  return { items, next };
}

/** POST a JSON body and read the JSON answer (a what-if: it writes nothing). */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { ...headers('application/json'), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let problem = null;
    try { problem = await response.json(); } catch { /* not a problem document */ }
    throw new ApiError(response.status, problem);
  }
  return response.json();
}

/** GET a text document (SVG pictures, text reports). */
export async function getText(path, accept = 'image/svg+xml', options) {
  return (await request(path, accept, options)).text();
}

/** Every event of a stream, oldest first, following `next` page by page. */
export async function streamEvents(stream, from = 0) {
  const events = [];
  let next = from;
  while (next !== null && next !== undefined) {
    const page = await getJSON(`/v1/streams/${encodeURIComponent(stream)}/events?from=${next}&limit=1000`);
    events.push(...page.events);
    next = page.events.length ? page.next : null;
  }
  return events;
}

/** The registered rulesets, fetched once. */
let rulesets = null;
export async function rulesetList() {
  rulesets ??= getJSON('/v1/rulesets').catch((error) => { rulesets = null; throw error; });
  return rulesets;
}
