/**
 * What the page needs to run under the server's strict Content-Security-Policy (issue 26, item 5: no
 * 'unsafe-inline', no 'unsafe-eval'). Imported first by main.tsx. (Zod's setting that keeps it from trying
 * `new Function` must hold before any module builds a schema: index.html sets it, before the modules load.)
 */

/**
 * The page's nonce. The server writes a fresh one into every copy of the page, `<meta property="csp-nonce"
 * nonce="...">` (Vite's `html.cspNonce`), and allows inline styles only with it. Browsers hide a `nonce` attribute
 * from getAttribute once the page has a CSP: the property still holds it. Undefined when the page has none
 * (the Vite dev server, which sends no CSP either).
 */
function readNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';
  // The build's placeholder left as it is: no server put a nonce in.
  return nonce && nonce !== '__CSP_NONCE__' ? nonce : undefined;
}

export const cspNonce = readNonce();

/**
 * Ant Design's CSS-in-JS and icons take the nonce from ConfigProvider's `csp` (app.tsx); two helpers of its
 * @rc-component/util do not: the scroll lock of an open Modal or Drawer and the scrollbar measure create
 * `<style>` elements without it (react-component/util#613, ant-design#58150, both open), and the browser refuses
 * them. Each `<style>` element this page's scripts create gets the nonce from the start, as those two would
 * with a `csp` option. Markup parsed from a string (the injection a nonce defends against) makes its elements
 * without `createElement` and stays refused.
 */
if (cspNonce) {
  const nonce = cspNonce;
  const createElement = document.createElement.bind(document);
  document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = createElement(tagName, options);
    if (element instanceof HTMLStyleElement && !element.nonce) element.nonce = nonce;
    return element;
  }) as typeof document.createElement;
}
