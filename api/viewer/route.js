// The location's hash as a route: a path and its query (`#/battles/<id>?at=3`), and updating
// the query in place (the scrubber's `at`) without re-rendering the page.

/** The route's path and its query parameters. */
export function location() {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

/** Update the query of the current route without re-rendering the page. */
export function setParams(changes) {
  const { path, params } = location();
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  history.replaceState(null, '', `#${path}${query ? `?${query}` : ''}`);
}
