// The browser module (the core's rules, public/pkg/), loaded once for the console: the editor checks
// definitions with it, the budget's chart reads a currency's places from it.
import init, { PromoCode, minorUnits } from "../pkg/promocodes.js";

/** Resolves once the module is ready to use. */
export const moduleReady = init();

export { PromoCode, minorUnits };
