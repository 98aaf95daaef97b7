// The node's HTTP API, with the bearer token of the signed-in user in the Authorization
// header only (never in a URL or a cookie, so no other site can make a request act for the
// user). The token lives in sessionStorage: gone when the tab closes or on sign-out.

const kTokenKey = 'skillnode.token';

export function token() {
  return sessionStorage.getItem(kTokenKey);
}

export function setToken(value) {
  if (value) sessionStorage.setItem(kTokenKey, value);
  else sessionStorage.removeItem(kTokenKey);
  window.dispatchEvent(new Event('skillnode-auth'));
}

export function authHeaders(extra = {}) {
  const headers = {...extra};
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  return headers;
}

// {status, ok, json, text, error} of one call; status 0 when the node is unreachable.
// `error` is a sentence for people: the API's message, or what went wrong.
export async function call(method, path, {body, signal, headers} = {}) {
  const init = {method, headers: authHeaders(headers), signal, credentials: 'omit',
                cache: 'no-store'};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    return {status: 0, ok: false, json: null, text: '', error: `the node did not answer (${e.message})`};
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  let error = null;
  if (!response.ok) {
    error = json && typeof json.message === 'string' ? json.message : `HTTP ${response.status}`;
    if (response.status === 401) error = `the token was refused: ${error}`;
  }
  return {status: response.status, ok: response.ok, json, text, error};
}

export const get = (path, options) => call('GET', path, options);
export const post = (path, body, options) => call('POST', path, {...options, body});

// The exact bytes of a response body as text, a byte order mark kept (fetch's text() would
// drop it), for showing SKILL.md as its publisher wrote it.
export async function getExactText(path) {
  const response = await fetch(path, {headers: authHeaders(), credentials: 'omit', cache: 'no-store'});
  const bytes = await response.arrayBuffer();
  const text = new TextDecoder('utf-8', {ignoreBOM: true}).decode(bytes);
  return {status: response.status, ok: response.ok, text, bytes: bytes.byteLength};
}

export function enc(segment) {
  return encodeURIComponent(segment);
}
