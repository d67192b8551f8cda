// The buyer's checkout as a buyer judges it (issue 35, items 1 to 3), at a laptop's and a phone's
// width each: a code never keeps the buyer from paying (a refused one is left out, named next to
// its field and on Pay, and never sent); each code's result under its own field; Pay and its total
// in view while the codes are edited; 44 px targets; one money style; the receipt's order date;
// a new order without the last order's codes. axe-core on each view; screenshots to test-output/.
//
// Run with scripts/test-e2e.sh, or `node --test tests/e2e/buyer.test.mjs` after scripts/build.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { capturer } from '../worker/harness.mjs';
import {
  OUTPUT, PAGE_BASKET, TOTAL, WIDTHS, addCode, api, axe, captureFor, checkoutWorker, confirmAndWaitForReceipt, counts, defineCode, openCheckout,
  payAndHold, screenshot, sent, statusOf, text, typeCode, usageOf, waitForText,
} from './page.mjs';

checkoutWorker('buyer');

// What the viewport shows (the sticky Pay bar where it stands), beside the full-page screenshot.
async function viewportShot(page, name) {
  await page.screenshot({ path: path.join(OUTPUT, `checkout-${name}.png`) });
}

// Where the viewport is: a code for each width, so that one width's uses never meet the other's.
const prefix = (width) => (width.name === 'desktop' ? 'D' : 'P');

// Whether `selector` is wholly in the viewport and is what a tap at its centre reaches (not under
// another element, such as a sticky bar).
async function inView(page, selector) {
  return page.evaluate((sel) => {
    const node = document.querySelector(sel);
    const box = node.getBoundingClientRect();
    const within = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth && box.height > 0;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return within && (hit === node || node.contains(hit));
  }, selector);
}

// ---- item 1: a code never keeps a buyer from paying ----

test('a refused code in a stack leaves the others applied: named next to its field and on Pay, and never held', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    await defineCode({ code: `${p}SAVE`, discount: { kind: 'percent', percent: '10' }, combines_with: ['product', 'shipping'] });
    await defineCode({ code: `${p}LONER`, discount: { kind: 'percent', percent: '5' } });
    const { page, requests } = await openCheckout({ viewport: width.viewport });
    await typeCode(page, `${p}save`);
    await waitForText(page, '#quote-message', `${p}SAVE applied`);
    await addCode(page, `${p}loner`);
    await waitForText(page, '#quote-message', 'cannot be combined');
    // The core refuses the pair: the Worker would hold neither.
    const both = await api('POST', '/v1/quotes', { body: { codes: [`${p}SAVE`, `${p}LONER`], ...PAGE_BASKET } });
    assert.equal(both.status, 422, both.text);

    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), `${p}SAVE: −€8.00, 10% off.`);
    assert.equal(await (await statusOf(page, 'Second promo code')).innerText(), `${p}LONER cannot be combined with ${p}SAVE.`);
    assert.equal(await page.getByLabel('Second promo code', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Promo code', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await text(page, '#discount'), '−€8.00');
    assert.equal(await text(page, '#payable'), '€76.90');
    assert.equal(await text(page, '#line-discount-mug'), '−€2.50');
    assert.equal(
      await text(page, '#quote-message'),
      `${p}SAVE applied: 10% off. ${p}LONER cannot be combined with ${p}SAVE. You can pay €76.90 without it.`,
    );
    assert.equal(await page.locator('#pay').isEnabled(), true, 'a refused code never disables Pay');
    assert.equal(await page.locator('#pay').innerText(), `Pay €76.90 without ${p}LONER`);
    await axe(page, `a refused code in a stack (${width.name})`);
    await screenshot(page, `refused-in-stack-${width.name}`);

    await payAndHold(page);
    const [hold] = sent(requests, '/demo/hold');
    assert.deepEqual(hold.codes, [`${p}SAVE`], 'only the code that applies is held');
    assert.match(await text(page, '#hold-message'), new RegExp(`^${p}SAVE is reserved for you until`));
    await confirmAndWaitForReceipt(page);
    const [pay] = sent(requests, '/demo/pay');
    assert.deepEqual(pay.codes, [`${p}SAVE`], 'only the code that applies is captured');
    assert.equal(pay.quote.payable.amount, '76.90');
    assert.equal(await text(page, '#receipt-message'), `You paid €76.90: €8.00 off €84.90 with ${p}SAVE.`);
    assert.equal(await text(page, '#receipt-left-out'), `${p}LONER was not applied.`);
    assert.deepEqual(counts(await usageOf(`${p}SAVE`)), { total: 1, held: 0 });
    assert.deepEqual(counts(await usageOf(`${p}LONER`)), { total: 0, held: 0 });
    await axe(page, `receipt without a refused code (${width.name})`);
    await page.done();
  }
});

test('an unknown code and a code below its minimum in a stack: the code that works applies, Pay leaves both out', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    await defineCode({ code: `${p}MUG15`, discount: { kind: 'percent', percent: '15' }, applies_to: { categories: ['mugs'] },
      combines_with: ['order', 'shipping'] });
    await defineCode({ code: `${p}BIG`, discount: { kind: 'percent', percent: '10' }, minimum: { amount: '200.00', currency: 'EUR' },
      combines_with: ['product', 'shipping'] });
    const { page, requests } = await openCheckout({ viewport: width.viewport });
    await typeCode(page, `${p}nope`);
    await addCode(page, `${p}mug15`);
    await addCode(page, `${p}big`);
    await waitForText(page, '#quote-message', 'without them');
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), `There is no code ${p}NOPE: check the spelling.`);
    assert.equal(await (await statusOf(page, 'Second promo code')).innerText(), `${p}MUG15: −€3.75, 15% off mugs.`);
    assert.equal(await (await statusOf(page, 'Third promo code')).innerText(), `${p}BIG needs a basket of at least €200.00.`);
    assert.equal(await text(page, '#payable'), '€81.15');
    assert.equal(await page.locator('#pay').innerText(), `Pay €81.15 without ${p}NOPE and ${p}BIG`);
    assert.equal(await page.locator('#pay').isEnabled(), true);
    await payAndHold(page);
    assert.deepEqual(sent(requests, '/demo/hold')[0].codes, [`${p}MUG15`]);
    await page.locator('#cancel').click();
    await page.locator('#outcome[data-kind="cancelled"]').waitFor();
    assert.deepEqual(sent(requests, '/demo/cancel')[0].codes, [`${p}MUG15`]);

    // A code refused only because of another refused code applies once that one is left out: BIG
    // (below its minimum) and ORDER5 cannot combine, and the core refuses both together.
    await defineCode({ code: `${p}ORDER5`, discount: { kind: 'percent', percent: '5' }, combines_with: ['order'] });
    const pair = await api('POST', '/v1/quotes', { body: { codes: [`${p}BIG`, `${p}ORDER5`], ...PAGE_BASKET } });
    assert.deepEqual(pair.body.rejections.map((r) => [r.code, r.rejection]), [[`${p}BIG`, 'below_minimum'], [`${p}ORDER5`, 'not_combinable']]);
    await page.getByRole('button', { name: 'Remove the third promo code' }).click();
    await page.locator('#code').fill(`${p}big`);
    await page.getByLabel('Second promo code', { exact: true }).fill(`${p}order5`);
    await waitForText(page, '#quote-message', `${p}ORDER5 applied`);
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), `${p}BIG needs a basket of at least €200.00.`);
    assert.equal(await (await statusOf(page, 'Second promo code')).innerText(), `${p}ORDER5: −€4.00, 5% off.`);
    assert.equal(await page.locator('#pay').innerText(), `Pay €80.90 without ${p}BIG`);
    await page.done();
  }
});

test('a code used up while paying is left out once refused; Pay again holds the others', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    await defineCode({ code: `${p}RACE`, discount: { kind: 'percent', percent: '10' }, limits: { total: 1 }, combines_with: ['shipping'] });
    await defineCode({ code: `${p}RACESHIP`, discount: { kind: 'free_shipping' }, combines_with: ['order'] });
    const { page, requests } = await openCheckout({ viewport: width.viewport });
    await typeCode(page, `${p}race`);
    await addCode(page, `${p}raceship`);
    await waitForText(page, '#quote-message', 'applied together');
    assert.equal(await page.locator('#pay').innerText(), 'Pay €72.00');
    await captureFor(`${p}RACE`, 'someone-else'); // the last use, taken between the quote and Pay
    await page.locator('#pay').click();
    await page.locator('#outcome[data-kind="stale"]').waitFor();
    assert.equal(await text(page, '#stale-message'), `Someone else took the last use of ${p}RACE while you were paying. Nothing was charged.`);
    assert.deepEqual(counts(await usageOf(`${p}RACESHIP`)), { total: 0, held: 0 }, 'all or none: nothing held');
    // The page looked the codes up again: the used-up one is left out, the other still applies.
    await waitForText(page, '#pay', `without ${p}RACE`);
    assert.equal(await page.locator('#pay').innerText(), `Pay €80.00 without ${p}RACE`);
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), `${p}RACE has been used up.`);
    assert.equal(await (await statusOf(page, 'Second promo code')).innerText(), `${p}RACESHIP: −€4.90, free shipping.`);
    await axe(page, `refused while paying (${width.name})`);
    await screenshot(page, `refused-while-paying-${width.name}`);
    await payAndHold(page);
    assert.deepEqual(sent(requests, '/demo/hold').map((hold) => hold.codes), [[`${p}RACE`, `${p}RACESHIP`], [`${p}RACESHIP`]]);
    await confirmAndWaitForReceipt(page);
    assert.equal(await text(page, '#receipt-paid'), '€80.00');
    assert.deepEqual(counts(await usageOf(`${p}RACESHIP`)), { total: 1, held: 0 });
    await page.done();
  }
});

test('one refused code (unknown, below its minimum) leaves Pay on at the full price, and says so', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    await defineCode({ code: `${p}MIN50`, discount: { kind: 'percent', percent: '10' }, minimum: { amount: '50.00', currency: 'EUR' } });
    const { page, requests } = await openCheckout({ viewport: width.viewport });
    await typeCode(page, 'NOPE-404');
    const unknown = await waitForText(page, '#quote-message', 'no code');
    assert.equal(unknown, `There is no code NOPE-404: check the spelling. You can pay ${TOTAL} without it.`);
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), 'There is no code NOPE-404: check the spelling.');
    assert.equal(await page.locator('#pay').isEnabled(), true);
    assert.equal(await page.locator('#pay').innerText(), `Pay ${TOTAL} without NOPE-404`);
    await axe(page, `an unknown code (${width.name})`);
    await screenshot(page, `unknown-code-${width.name}`);

    await page.locator('#code').fill('');
    await typeCode(page, `${p}min50`);
    await waitForText(page, '#quote-message', `${p}MIN50 applied`);
    await page.locator('#qty-grinder').fill('0'); // 33.50 of items
    const below = await waitForText(page, '#quote-message', 'at least');
    assert.equal(below, `${p}MIN50 needs a basket of at least €50.00. You can pay €38.40 without it.`);
    assert.equal(await page.locator('#pay').innerText(), `Pay €38.40 without ${p}MIN50`);
    await page.locator('#pay').click();
    await page.locator('#outcome[data-kind="confirm"]').waitFor();
    assert.equal(await text(page, '#hold-message'), `Paying without ${p}MIN50: there is nothing to reserve.`);
    await page.locator('#confirm').click();
    await page.locator('#outcome[data-kind="receipt"]').waitFor();
    assert.equal(await text(page, '#receipt-message'), 'You paid €38.40.');
    assert.deepEqual(requests.filter((r) => r.url.startsWith('/demo/')), [], 'nothing to hold or capture');
    assert.deepEqual(counts(await usageOf(`${p}MIN50`)), { total: 0, held: 0 });
    await page.done();
  }
});

// ---- item 2: each code's result under its field; Pay in view; 44 px targets ----

test('each code\'s result under its own field, the single code too; Pay and its total stay in view; 44 px targets', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    await defineCode({ code: `${p}TEN`, discount: { kind: 'percent', percent: '10' }, combines_with: ['shipping'] });
    await defineCode({ code: `${p}FREESHIP`, discount: { kind: 'free_shipping' }, combines_with: ['order'] });
    const { page } = await openCheckout({ viewport: width.viewport });
    await page.locator('#code').focus();
    await typeCode(page, `${p}ten`);
    await waitForText(page, '#quote-message', `${p}TEN applied`);
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), `${p}TEN: −€8.00, 10% off.`);
    // The buyer is editing the code: the field, and Pay with the total, are both in view.
    assert.ok(await inView(page, '#code'), 'the code field is in view');
    assert.ok(await inView(page, '#pay'), 'Pay is in view while the code is edited');
    assert.equal(await page.locator('#pay').innerText(), 'Pay €76.90');
    await viewportShot(page, `code-editing-${width.name}`);
    // While the second code is typed and looked up, the first one's line stays, and Pay keeps its
    // total: nothing jumps or flickers.
    await page.evaluate(() => {
      window.seen = { status: [], pay: [] };
      const watch = (id, list) => {
        const node = document.getElementById(id);
        new MutationObserver(() => list.push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
      };
      watch('code-status', window.seen.status);
      watch('pay', window.seen.pay);
    });
    await addCode(page, `${p}freeship`);
    await waitForText(page, '#quote-message', 'applied together');
    const seen = await page.evaluate(() => window.seen);
    assert.ok(!seen.status.includes(''), 'the first code\'s line never empties');
    assert.ok(seen.pay.length > 0 && seen.pay.every((label) => /^Pay €/.test(label)), `Pay's labels: ${seen.pay.join(' | ')}`);
    assert.equal(await (await statusOf(page, 'Second promo code')).innerText(), `${p}FREESHIP: −€4.90, free shipping.`);
    assert.ok(await inView(page, '#pay'), 'Pay is in view after a code is added');
    assert.ok(await inView(page, `#${await page.getByLabel('Second promo code', { exact: true }).getAttribute('id')}`),
      'the field being edited is not under the Pay bar');
    assert.equal(await page.locator('#pay').innerText(), 'Pay €72.00');
    // Every control a finger reaches is at least 44 × 44 px.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button, input')]
        .filter((node) => node.offsetParent !== null)
        .map((node) => ({ name: node.id || node.textContent, box: node.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 || box.width < 44)
        .map(({ name, box }) => `${name}: ${Math.round(box.width)} × ${Math.round(box.height)}`),
    );
    assert.deepEqual(small, [], `targets under 44 px at ${width.name}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await axe(page, `two codes quoted (${width.name})`);
    await viewportShot(page, `codes-fields-${width.name}`);
    await screenshot(page, `codes-fields-full-${width.name}`);
    // Scrolled to the end, the Pay bar sits in its place, under the summary.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok(await inView(page, '#pay'));
    assert.ok(await inView(page, '#payable'), 'the summary is not under the bar');
    await page.done();
  }
});

// ---- item 3: one money style; the order's date; a new order ----

test('money in the locale\'s style everywhere, the budget\'s sentences too; the receipt\'s order date; a new order clears the codes', async () => {
  for (const width of WIDTHS) {
    const p = prefix(width);
    for (const [code, short] of [[`${p}CLIP`, 'partial'], [`${p}SHORT`, 'refuse']]) {
      await defineCode({ code, discount: { kind: 'percent', percent: '10' },
        limits: { budget: { amount: '20.00', currency: 'EUR' }, when_budget_short: short }, combines_with: ['shipping'] });
      // Another buyer took EUR 16.80 of the EUR 20.00: EUR 3.20 is left.
      const other = await api('POST', '/v1/captures', {
        body: { code, total: { amount: '168.00', currency: 'EUR' } },
        headers: { ...capturer, 'idempotency-key': `budget-${randomUUID()}` },
      });
      assert.equal(other.status, 201, other.text);
    }
    await defineCode({ code: `${p}SHIP`, discount: { kind: 'free_shipping' }, combines_with: ['order'] });
    const { page, requests } = await openCheckout({ viewport: width.viewport });
    await typeCode(page, `${p}short`);
    const refused = await waitForText(page, '#quote-message', 'budget');
    assert.equal(refused, `Only €3.20 is left in this promotion's budget, less than ${p}SHORT would take off this basket. You can pay ${TOTAL} without it.`);
    await page.locator('#code').fill('');
    await typeCode(page, `${p}clip`);
    const clipped = await waitForText(page, '#quote-message', 'applied');
    assert.equal(clipped, `${p}CLIP applied: 10% off. €3.20 left in this promotion's budget: you save €3.20 instead of €8.00.`);
    await addCode(page, `${p}ship`);
    await waitForText(page, '#quote-message', 'applied together');
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(),
      `${p}CLIP: −€3.20, 10% off. €3.20 left in this promotion's budget, instead of €8.00.`);
    assert.doesNotMatch(await page.locator('body').innerText(), /EUR/, 'no money as the core writes it');
    await payAndHold(page);
    await confirmAndWaitForReceipt(page);
    assert.equal(await text(page, '#receipt-paid'), '€76.80'); // 84.90 − 3.20 − 4.90
    // The receipt's date is the order's: when it was paid.
    const [pay] = sent(requests, '/demo/pay');
    assert.ok(pay);
    assert.equal(await page.locator('.receipt dt').filter({ hasText: 'Order date' }).count(), 1);
    assert.match(await text(page, '#receipt-date'), /^\d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}$/);
    assert.equal(await page.locator('.receipt dt').filter({ hasText: 'Quoted' }).count(), 0);
    assert.doesNotMatch(await page.locator('body').innerText(), /EUR/, 'no money as the core writes it on the receipt');
    await axe(page, `receipt (${width.name})`);
    await screenshot(page, `receipt-${width.name}`);

    // A new order starts without the last order's codes: one empty field, the full price.
    await page.locator('#new-order').click();
    assert.equal(await page.evaluate(() => document.activeElement.id), 'code');
    assert.equal(await page.locator('input.code-input').count(), 1);
    assert.equal(await page.locator('#code').inputValue(), '');
    assert.equal(await (await statusOf(page, 'Promo code')).innerText(), '');
    assert.equal(await text(page, '#quote-message'), 'No promo code: you pay the full price.');
    assert.equal(await page.locator('#pay').innerText(), `Pay ${TOTAL}`);
    assert.equal(await text(page, '#line-discount-mug'), '');
    await axe(page, `a new order (${width.name})`);
    await screenshot(page, `new-order-${width.name}`);
    await page.done();
  }
});
