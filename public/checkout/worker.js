// The checkout's requests to the Worker's demo routes.

/**
 * POSTs `body` as JSON to `route`; resolves to { status, answer (the JSON answer, or {}), headers },
 * or status 0 with the error's message as `answer.detail` when the Worker could not be reached.
 */
export async function post(route, body) {
  try {
    const res = await fetch(route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    return { status: res.status, answer, headers: res.headers };
  } catch (err) {
    return { status: 0, answer: { detail: err.message }, headers: new Headers() };
  }
}
