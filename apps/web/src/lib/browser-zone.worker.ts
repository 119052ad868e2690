// Answers the browser's time zone ("Africa/Nairobi"): the first time-zone lookup loads the browser's zone data, tens of
// milliseconds on a phone, which this worker spends off the page's main thread (lib/browser-zone.ts).
postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
