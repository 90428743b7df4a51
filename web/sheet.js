// A module's own styles as a constructed style sheet, adopted once: the page's
// Content-Security-Policy (default-src 'self') refuses inline <style> elements, not sheets
// made through the CSSOM.
const adopted = new Set();

export function adoptStyle(doc, css) {
  if (adopted.has(css)) return;
  adopted.add(css);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
