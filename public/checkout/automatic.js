// The shop's automatic promotions (GET /v1/automatic): fetched when the page loads, and again after a
// payment the Worker refused; each definition with only the fields the module reads (the lookup's
// `assigned` left out). The module's PromoStack quotes with them beside the typed codes, as the
// Worker does when Pay sends `"automatic": true`.
import { definitionFields } from '../pkg/promocodes.js';
import { state } from './page.js';

/** Fetches the list; on any failure the page quotes the typed codes alone, as without promotions. */
export async function loadAutomatic() {
  try {
    const res = await fetch('/v1/automatic', { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const { promotions } = await res.json();
    const fields = definitionFields();
    state.automatic = promotions.map((body) => {
      const definition = {};
      for (const field of fields) if (body[field] !== undefined && body[field] !== null) definition[field] = body[field];
      return definition;
    });
  } catch {
    // No automatic promotions on this page.
  }
}

/** Whether the shop runs any automatic promotion. */
export const hasAutomatic = () => state.automatic.length > 0;

/** The definition of automatic promotion `code`, or null. */
export const automaticDefinition = (code) => state.automatic.find((d) => d.code === code) ?? null;
