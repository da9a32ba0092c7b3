import type { Terminal } from '@xterm/xterm';

/**
 * Opens an xterm.js terminal under the dashboard's Content-Security-Policy (`style-src 'self'`).
 *
 * xterm.js 6 writes its theme colours, font and row sizes into `<style>` elements it creates while
 * the terminal opens (its DOM renderer and its scrollbar), and the policy refuses inline style
 * elements, even empty ones: the terminal would lose its colours and log a violation for each.
 * xterm.js has no option for this, so while `open` runs, the style elements it asks for are
 * replaced by inert `<template>` elements whose text goes into a constructed stylesheet adopted by
 * the document (CSSOM, which the policy allows). xterm.js only sets their `textContent` and calls
 * `remove()` on them; the sheet follows both. The swap lasts exactly the synchronous `open` call.
 */
export function openTerminal(terminal: Terminal, parent: HTMLElement): void {
  const doc = parent.ownerDocument;
  const create = doc.createElement.bind(doc);
  const swapped = ((tagName: string, options?: ElementCreationOptions) =>
    tagName.toLowerCase() === 'style'
      ? adoptedStyle(doc, create)
      : create(tagName, options)) as typeof doc.createElement;
  Object.defineProperty(doc, 'createElement', {
    value: swapped,
    configurable: true,
    writable: true,
  });
  try {
    terminal.open(parent);
  } finally {
    // Back to Document.prototype.createElement.
    Reflect.deleteProperty(doc, 'createElement');
  }
}

function adoptedStyle(doc: Document, create: Document['createElement']): HTMLElement {
  const stand = create('template');
  const sheet = new CSSStyleSheet();
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  let text = '';
  Object.defineProperty(stand, 'textContent', {
    configurable: true,
    get: () => text,
    set: (value: string | null) => {
      text = value ?? '';
      sheet.replaceSync(text);
    },
  });
  const remove = stand.remove.bind(stand);
  stand.remove = () => {
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet);
    remove();
  };
  return stand;
}
