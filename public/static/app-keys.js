// The API keys pages: the new key's copy button. Without script the key is a read-only field whose
// text the person selects and copies; with it, the button copies it and says so.
const button = document.getElementById('copy-key');
const status = document.getElementById('copy-status');
const field = button && document.getElementById(button.dataset.copies ?? '');
if (button && status && field instanceof HTMLInputElement) {
  button.hidden = false;
  field.addEventListener('focus', () => field.select());
  button.addEventListener('click', async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = status.dataset.copied ?? '';
    } catch {
      // No clipboard (permission refused, an old browser): the key stays selected, to copy by hand.
      status.textContent = status.dataset.failed ?? '';
    }
  });
}
