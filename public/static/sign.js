/*
 * The signing page's script: plain modern JavaScript, loaded as a module, no build step.
 *
 * What it adds to the server's page, which works without it (typed signatures, the PDF by link):
 * the document's pages drawn by pdf.js with this signer's fields as boxes over them, drawing a
 * signature on a canvas, and the boxes showing what was filled in. The content policy allows no
 * inline script or style, so sizes and places are set through element.style, which it does allow.
 */

const PDFJS = '/static/vendor/pdfjs/pdf.min.mjs';
const PDFJS_WORKER = '/static/vendor/pdfjs/pdf.worker.min.mjs';
/** The service refuses larger drawings (MAX_DRAWN_SIGNATURE_CHARS); a 600×200 PNG of a signature stays far below. */
const MAX_DRAWING_CHARS = 300_000;


/** The problems of a refused form are announced (role="alert") and get the focus, so they are read first. */
function focusProblems() {
  const summary = document.querySelector('[data-error-summary]');
  if (summary) summary.focus();
}

// ---------------------------------------------------------------------------------------------
// The pages and the field boxes

/** Each page keeps its PDF proportions, and each box its place, in percent of the page: they scale with it. */
function layOutPages() {
  for (const page of document.querySelectorAll('.page')) {
    const width = Number(page.dataset.width);
    const height = Number(page.dataset.height);
    const sheet = page.querySelector('.page-sheet');
    if (!sheet || !(width > 0) || !(height > 0)) continue;
    sheet.style.aspectRatio = `${width} / ${height}`;
    for (const box of sheet.querySelectorAll('[data-field-box], [data-earlier]')) {
      box.style.left = percent(Number(box.dataset.x) / width);
      box.style.top = percent(Number(box.dataset.y) / height);
      box.style.width = percent(Number(box.dataset.w) / width);
      box.style.height = percent(Number(box.dataset.h) / height);
    }
    // Text in the boxes is sized like 10-point text on the page, whatever the page's rendered width.
    const scaleText = () => {
      sheet.style.fontSize = `${Math.max(8, Math.min(16, (sheet.clientWidth / width) * 10))}px`;
      for (const earlier of sheet.querySelectorAll('[data-earlier][data-max-size]')) fitEarlier(earlier, sheet.clientWidth / width);
    };
    scaleText();
    new ResizeObserver(scaleText).observe(sheet);
  }
}

/** Noto Sans's line height (ascent + descent) in em: the PDF fits a line's full height to its box. */
const LINE_HEIGHT_EM = 1.362;

/**
 * An earlier signer's value sized as the finished PDF draws it (src/pdf/draw-fields.ts): as large
 * as the box's height allows up to its largest size, smaller down to its smallest to fit the
 * width, then cut. `scale` is pixels per PDF point at the page's rendered width.
 */
function fitEarlier(box, scale) {
  const text = box.querySelector('.earlier-text');
  if (!text || !(scale > 0)) return;
  const largest = Math.max(1, Math.min(Number(box.dataset.maxSize), Number(box.dataset.h) / LINE_HEIGHT_EM));
  const smallest = Math.min(Number(box.dataset.minSize) || 6, largest);
  box.style.fontSize = `${largest * scale}px`;
  const natural = text.scrollWidth;
  const room = Number(box.dataset.w) * scale;
  if (natural > room && natural > 0) box.style.fontSize = `${Math.max(smallest, (largest * room) / natural) * scale}px`;
}

function percent(fraction) {
  return `${Math.max(0, Math.min(100, fraction * 100)).toFixed(3)}%`;
}

async function renderDocument() {
  const pages = document.querySelector('[data-document]');
  if (!pages) return;
  const status = document.querySelector('[data-pages-status]');
  const say = (text) => {
    if (status) status.textContent = text;
  };
  // The words are the page's own, in the signer's language (data-say-* on the status line).
  const words = status?.dataset ?? {};
  say(words.sayLoading ?? '');
  let pdf;
  try {
    const pdfjs = await import(PDFJS);
    pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER;
    // No eval: the content policy forbids it, and pdf.js does as well without it.
    pdf = await pdfjs.getDocument({ url: pages.dataset.document, isEvalSupported: false }).promise;
  } catch {
    say(words.sayFailed ?? '');
    return;
  }
  const sheets = [...pages.querySelectorAll('.page')];
  let drawing = Promise.resolve();
  const drawAll = () => {
    drawing = drawing.then(async () => {
      for (const page of sheets) {
        const number = Number(page.dataset.page);
        if (number > pdf.numPages) continue;
        await renderPage(await pdf.getPage(number), page.querySelector('.page-sheet'));
      }
    });
    return drawing;
  };
  try {
    await drawAll();
    say('');
  } catch {
    say(words.saySomeFailed ?? '');
    return;
  }
  // Drawn again when the width changes a lot (a phone turned, a window resized), to stay sharp.
  let width = pages.clientWidth;
  let timer;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (Math.abs(pages.clientWidth - width) < 40) return;
      width = pages.clientWidth;
      drawAll().catch(() => {});
    }, 250);
  });
}

async function renderPage(page, sheet) {
  const natural = page.getViewport({ scale: 1 });
  const pixelRatio = Math.min(window.devicePixelRatio || 1, 3);
  const viewport = page.getViewport({ scale: Math.max(0.5, (sheet.clientWidth * pixelRatio) / natural.width) });
  const canvas = document.createElement('canvas');
  canvas.className = 'page-canvas';
  // The page is read through "Open the PDF"; the canvas is a picture of it.
  canvas.setAttribute('aria-hidden', 'true');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  await page.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
  const previous = sheet.querySelector('.page-canvas');
  if (previous) previous.replaceWith(canvas);
  else sheet.prepend(canvas);
}

/** A box shows what its field holds: the typed text, a tick, or the drawing. */
function updateBox(fieldId) {
  const box = document.querySelector(`[data-field-box="${CSS.escape(fieldId)}"]`);
  if (!box) return;
  const text = box.querySelector('[data-box-text]');
  box.querySelector('img')?.remove();
  const control = document.getElementById(`field-${fieldId}`);
  let shown = '';
  let drawing = '';
  if (control?.dataset.signature !== undefined) {
    if (control.dataset.mode === 'draw') drawing = control.querySelector('[data-drawn-value]').value;
    else shown = control.querySelector('[data-typed] input').value.trim();
  } else {
    const input = control?.querySelector('[data-field-input]');
    // A radio group's box shows the option chosen; a date's, the date as the finished PDF will write it.
    const chosen = control?.querySelector('input[type="radio"]:checked');
    if (input?.type === 'radio') shown = chosen ? chosen.value : '';
    else if (input?.type === 'date') shown = input.valueAsDate ? documentDate(fieldId, input.valueAsDate) : '';
    else if (input?.type === 'checkbox') shown = input.checked ? '✓' : '';
    else if (input) shown = input.value.trim();
  }
  if (drawing) {
    const image = document.createElement('img');
    image.alt = '';
    image.src = drawing;
    box.append(image);
  }
  text.hidden = Boolean(drawing);
  text.textContent = shown || (box.dataset.placeholder ?? '');
  box.classList.toggle('filled', Boolean(shown || drawing));
}

function setUpFieldInputs() {
  for (const input of document.querySelectorAll('[data-field-input]')) {
    const update = () => updateBox(input.dataset.fieldInput);
    input.addEventListener('input', update);
    input.addEventListener('change', update);
    update();
  }
}

/** A box, or a problem in the summary, takes the signer to the field's control and focuses it. */
function setUpJumps() {
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a.field-box, [data-error-summary] a');
    if (!link || !link.hash) return;
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    const container = target.closest('.field') ?? target;
    const candidates = target.matches('input, textarea') ? [target, ...container.querySelectorAll('input, textarea')] : [...container.querySelectorAll('input, textarea')];
    const focusable = candidates.find((element) => element.type !== 'hidden' && element.getClientRects().length > 0);
    if (!focusable) return;
    event.preventDefault();
    container.scrollIntoView({ block: 'center' });
    focusable.focus({ preventScroll: true });
  });
}

/** One click signs once: the button waits for the answer (and comes back if the page is shown again from history). */
function setUpSubmit() {
  const form = document.querySelector('[data-sign-form]');
  const button = form?.querySelector('button[type="submit"]');
  if (!form || !button) return;
  const label = button.textContent;
  form.addEventListener('submit', () => {
    setTimeout(() => {
      button.disabled = true;
      button.textContent = button.dataset.busyLabel || label;
    }, 0);
  });
  window.addEventListener('pageshow', () => {
    button.disabled = false;
    button.textContent = label;
  });
}

// ---------------------------------------------------------------------------------------------
// Signatures and initials: typed, or drawn

/**
 * Exactly one input carries the field's name (`field.<id>`): the typed text, or, when drawing,
 * the hidden input holding the drawing as a PNG data URL. So the post holds one value per field.
 */
function setUpSignature(fieldset) {
  const fieldId = fieldset.dataset.signature;
  const name = `field.${fieldId}`;
  const typedPart = fieldset.querySelector('[data-typed]');
  const typed = typedPart.querySelector('input');
  const drawnPart = fieldset.querySelector('[data-drawn]');
  const drawn = drawnPart.querySelector('[data-drawn-value]');
  const hint = drawnPart.querySelector('.hint');
  const hintText = hint.textContent;

  const pad = signaturePad(drawnPart.querySelector('[data-pad]'), (dataUrl) => {
    if (dataUrl.length > MAX_DRAWING_CHARS) {
      hint.textContent = hint.dataset.tooDetailed || hintText;
      drawn.value = '';
    } else {
      hint.textContent = hintText;
      drawn.value = dataUrl;
    }
    updateBox(fieldId);
  });
  if (drawn.value) pad.load(drawn.value);

  const setMode = (mode) => {
    const drawing = mode === 'draw';
    fieldset.dataset.mode = drawing ? 'draw' : 'type';
    drawnPart.hidden = !drawing;
    typedPart.hidden = drawing;
    if (drawing) {
      typed.removeAttribute('name');
      drawn.name = name;
    } else {
      drawn.removeAttribute('name');
      typed.name = name;
    }
    updateBox(fieldId);
  };
  for (const choice of fieldset.querySelectorAll('[data-mode-choice]')) {
    choice.addEventListener('change', () => {
      if (choice.checked) setMode(choice.value);
    });
  }
  drawnPart.querySelector('[data-clear]').addEventListener('click', () => {
    pad.clear();
    drawn.value = '';
    hint.textContent = hintText;
    updateBox(fieldId);
  });
  setMode(fieldset.dataset.mode);
}

/**
 * Drawing with a mouse, a finger or a pen (Pointer Events). The canvas is at most 600×200 pixels,
 * whatever its size on screen, so the PNG stays small; strokes are dark on transparent.
 */
function signaturePad(canvas, onChange) {
  const context = canvas.getContext('2d');
  const lineWidth = Math.max(2, canvas.width / 200);
  const style = () => {
    context.lineWidth = lineWidth;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111827';
    context.fillStyle = '#111827';
  };
  style();
  let active = null;
  let last = null;

  const pointOf = (event) => {
    const rect = canvas.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) * canvas.width) / rect.width, y: ((event.clientY - rect.top) * canvas.height) / rect.height };
  };
  canvas.addEventListener('pointerdown', (event) => {
    if (active !== null || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    active = event.pointerId;
    canvas.setPointerCapture(event.pointerId);
    last = pointOf(event);
    context.beginPath();
    context.arc(last.x, last.y, lineWidth / 2, 0, Math.PI * 2);
    context.fill();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (event.pointerId !== active) return;
    event.preventDefault();
    const events = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
    for (const each of events.length > 0 ? events : [event]) {
      const point = pointOf(each);
      context.beginPath();
      context.moveTo(last.x, last.y);
      context.lineTo(point.x, point.y);
      context.stroke();
      last = point;
    }
  });
  const end = (event) => {
    if (event.pointerId !== active) return;
    active = null;
    onChange(canvas.toDataURL('image/png'));
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);

  return {
    clear() {
      context.clearRect(0, 0, canvas.width, canvas.height);
    },
    /** A drawing sent with a refused form, put back on the canvas. */
    load(dataUrl) {
      const image = new Image();
      image.addEventListener('load', () => context.drawImage(image, 0, 0, canvas.width, canvas.height));
      image.src = dataUrl;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Inside an integrator's frame (embedded signing)

/**
 * Tells the parent page what happened, when the service named one (the <meta name="esign-embed">
 * it writes only for an origin the company allows). `postMessage` is given that origin as its
 * target, so a parent of any other origin receives nothing. The messages never carry the link.
 */
function tellParent() {
  const embed = document.querySelector('meta[name="esign-embed"]');
  if (!embed || window.parent === window) return;
  const { origin, envelopeId, recipientId, events } = embed.dataset;
  if (!origin || !events) return;
  for (const event of events.split(' ')) {
    window.parent.postMessage({ type: `esign:${event}`, envelope_id: envelopeId, recipient_id: recipientId }, origin);
  }
}

// ---------------------------------------------------------------------------------------------
// A radio group's options, each in its own box on the page

/**
 * Each option goes where its box is on the page (data-option-box, in PDF points), its input and
 * label moved there into a radio group named by the field's legend: what the signer clicks is
 * where the finished PDF draws the mark. The inputs still belong to the form (form=…), so they
 * stay one group, posted under its one name, the arrow keys moving between them as browsers do.
 * The group's single box on the page goes; without script the options stay in the form.
 */
function setUpRadioBoxes() {
  const form = document.querySelector('[data-sign-form]');
  if (!form) return;
  if (!form.id) form.id = 'sign-form';
  for (const group of document.querySelectorAll('[data-radio-group]')) {
    const sheet = document.querySelector(`.page[data-page="${CSS.escape(group.dataset.page ?? '')}"] .page-sheet`);
    const choices = [...group.querySelectorAll('[data-option-box]')];
    if (!sheet || choices.length === 0) continue;
    const page = sheet.closest('.page');
    const width = Number(page.dataset.width);
    const height = Number(page.dataset.height);
    if (!(width > 0) || !(height > 0)) continue;
    const holder = document.createElement('div');
    holder.className = 'option-boxes';
    holder.setAttribute('role', 'radiogroup');
    holder.setAttribute('aria-labelledby', `legend-${group.dataset.radioGroup}`);
    for (const choice of choices) {
      const input = choice.querySelector('input');
      const label = choice.querySelector('label');
      input?.setAttribute('form', form.id);
      if (input && label) input.title = label.textContent;
      // The label, its words unseen, becomes the option's target: at least 24 px square around a
      // box that a phone may draw a few pixels wide, so a finger can choose it.
      label?.classList.add('option-target');
      choice.classList.add('option-box');
      choice.style.left = percent(Number(choice.dataset.x) / width);
      choice.style.top = percent(Number(choice.dataset.y) / height);
      choice.style.width = percent(Number(choice.dataset.w) / width);
      choice.style.height = percent(Number(choice.dataset.h) / height);
      holder.append(choice);
    }
    sheet.append(holder);
    sheet.querySelector(`[data-field-box="${CSS.escape(group.dataset.radioGroup ?? '')}"]`)?.remove();
    group.classList.add('field-radio-on-page');
  }
}

/**
 * A date's line under its picker says how the finished PDF will write the date picked, in the
 * envelope's language (data-locale), the way the service writes dates (src/i18n: long month, UTC).
 */
function setUpDateLines() {
  for (const line of document.querySelectorAll('[data-date-shown]')) {
    const input = document.getElementById(`field-${line.dataset.dateShown}`)?.querySelector('input[type="date"]');
    if (!input) continue;
    const update = () => {
      line.textContent = input.valueAsDate ? (line.dataset.say ?? '{date}').replace('{date}', documentDate(line.dataset.dateShown, input.valueAsDate)) : '';
    };
    input.addEventListener('input', update);
    input.addEventListener('change', update);
  }
}

/** A date as the finished PDF will write it (its field's box on the page shows it so too): its line's locale, the service's format. */
function documentDate(fieldId, date) {
  const line = document.querySelector(`[data-date-shown="${CSS.escape(fieldId)}"]`);
  const locale = line?.dataset.locale || document.documentElement.lang || undefined;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

// ---------------------------------------------------------------------------------------------
// Start: everything above is declared by now.

document.documentElement.classList.add('js');

focusProblems();
layOutPages();
setUpRadioBoxes();
setUpDateLines();
for (const fieldset of document.querySelectorAll('[data-signature]')) setUpSignature(fieldset);
setUpFieldInputs();
setUpJumps();
setUpSubmit();
renderDocument();
tellParent();
