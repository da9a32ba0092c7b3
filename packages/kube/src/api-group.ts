/** The API group and version of every Paddock kind (`apiVersion: paddock.dev/v1alpha1`). */
export const GROUP = 'paddock.dev';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}` as const;
