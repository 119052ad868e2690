/** This browser's localStorage, or undefined where there is none to use (no window, or storage refused by the browser). */
export function localStore(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
