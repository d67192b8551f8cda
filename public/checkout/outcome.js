// The outcome panel under the summary: the hold, the receipt, a refusal, a busy code or a failure.
import { el } from '../lib/dom.js';
import { ui } from './page.js';
import { problemSentence } from './sentences.js';

/** Shows `children` in the outcome panel, styled by `kind`; moves focus there when asked. */
export function showOutcome(kind, children, { focus = false } = {}) {
  ui.outcome.dataset.kind = kind;
  ui.outcome.replaceChildren(...children.filter(Boolean));
  if (focus) ui.outcome.focus();
}

export function clearOutcome() {
  ui.outcome.dataset.kind = 'none';
  ui.outcome.replaceChildren();
}

/** A conflict (409) in words, with the Retry-After the Worker sent. */
export function busyNote(headers) {
  const after = headers.get('retry-after');
  return el(
    'p',
    { id: 'busy-message', class: 'note' },
    `Many people are using this code right now${after ? `; try again in ${after} s` : ''}. Nothing was charged, and trying again is safe.`,
  );
}

export function busy(headers, options) {
  showOutcome('conflict', [el('h3', {}, 'Busy, try again'), busyNote(headers)], options);
}

export function failedNote(status, answer) {
  return el('p', { id: 'error-message', class: 'note' }, `The payment did not go through. ${problemSentence(status, answer)} Nothing was charged; you can try again.`);
}

export function failed(status, answer, consequence, options) {
  showOutcome('error', [
    el('h3', {}, 'Something went wrong'),
    el('p', { id: 'error-message' }, `${problemSentence(status, answer)} ${consequence}`),
  ], options);
}
