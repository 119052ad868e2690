/**
 * Marks a popup inside a dialog (an open list) whose own Esc closes only the popup (portal-core §2: "Esc closes"
 * the searchable select), not the dialog around it. The dialog checks for it before it closes on Esc.
 */
export const OWN_ESCAPE = 'data-own-escape';
