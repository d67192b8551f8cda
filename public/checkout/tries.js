// The checkout's beacon: each code a buyer tried (typed, and found by its lookup) and each refusal the
// page showed for it, reported once a page load to POST /v1/codes/{code}/tries, so that the
// operator's figures count what the browser priced and the Worker never saw. Anonymous: no basket, no
// customer, no token. It never waits and never fails the page (a lost report is only a lost count).

const SENT_MAX = 200; // reports a page load sends at most (each code and refusal once)
const sent = new Set();

/** Reports that `code` was tried (`refused` null) or that the page showed it refused (`refused`: the core's rejection code). */
export function reportTry(code, refused = null) {
  const key = `${code}\n${refused ?? ''}`;
  if (!code || sent.has(key) || sent.size >= SENT_MAX) return;
  sent.add(key);
  try {
    fetch(`/v1/codes/${encodeURIComponent(code)}/tries`, {
      method: 'POST',
      keepalive: true, // sent even when the buyer leaves the page meanwhile
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(refused ? { refused } : {}),
    }).catch(() => {});
  } catch {
    // A browser without fetch's keepalive, or a page being unloaded: the count is lost, nothing else.
  }
}
