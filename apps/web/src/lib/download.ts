/** Saves text as a file the browser downloads (a CSV export, the recovery codes), without a round trip to the server. */
export function downloadText(name: string, text: string, type = 'text/plain;charset=utf-8') {
  downloadBlob(name, new Blob([text], { type }));
}

/** Saves a file the browser downloads (a PDF the API made, or text). */
export function downloadBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
