/** Hands a file the app holds (a CSV export, a photo, a poster) to the browser's downloads as `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the address after click returns: free it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
