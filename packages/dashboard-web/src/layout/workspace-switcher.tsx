/** The workspace switcher of the header. */
export function WorkspaceSwitcher() {
  return null;
}
