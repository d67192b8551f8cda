// Small DOM helpers both pages share. Nothing from the API or from a field ever becomes HTML: text
// goes in as text nodes and textContent, attributes through setAttribute.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/**
 * A new element: `el("p", { id: "x", class: "note" }, "text", child)`. Attributes are set as given;
 * children are text or nodes, and null, undefined and '' are left out.
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) node.setAttribute(key, value);
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== ''));
  return node;
}

/** Appends a table cell with `text` (and a class) to `row`; returns the cell. */
export function cell(row, text, className) {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.textContent = text;
  row.append(td);
  return td;
}

/** Marks a field invalid (aria-invalid) or valid again. */
export function markInvalid(input, invalid) {
  if (invalid) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/**
 * A live region's voice: `say(text)` puts the text in `region` once it has stood for `delay` ms
 * (one announcement per settled outcome, not per keystroke), `now(text)` at once, `cancel()` drops
 * the pending one. A text is never announced twice in a row; nothing is said while `enabled()` is
 * false.
 */
export function announcer(region, { delay = 500, enabled = () => true } = {}) {
  let timer = 0;
  let last = '';
  const now = (text) => {
    clearTimeout(timer);
    if (text === last) return;
    last = text;
    region.textContent = text;
  };
  return {
    say(text) {
      clearTimeout(timer);
      if (!enabled()) return;
      timer = setTimeout(() => now(text), delay);
    },
    now,
    cancel: () => clearTimeout(timer),
  };
}

/** Saves `text` as the file `name` through a download link. */
export function saveFile(text, name, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Fills the description list `dl` with `[name, value]` pairs, each a `div` of a `dt` and a `dd`. */
export function fillFigures(dl, items) {
  dl.replaceChildren();
  for (const [name, value] of items) {
    const div = document.createElement('div');
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    div.append(dt, dd);
    dl.append(div);
  }
}
