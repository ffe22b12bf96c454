// The template builder's pages: the uploaded PDF drawn by pdf.js, each field row a box over its
// page in its role's colour. Boxes are dragged from the palette onto a page, moved and resized
// with the mouse, and moved with the arrow keys (1 pt, with Shift 10; with Alt they resize). Every
// change is written into the row's inputs, so saving stays the form's plain post; without script
// the rows are the builder.
const PDFJS = '/static/vendor/pdfjs/pdf.min.mjs';
const PDFJS_WORKER = '/static/vendor/pdfjs/pdf.worker.min.mjs';
const ROLE_COLOURS = 8;
/** A new field's size in points, as the form's own "Add a field" makes it. */
const NEW_FIELD = { width: 180, height: 36 };

const form = document.querySelector('.builder-form');
const list = document.querySelector('.builder-pages');
const rowTemplate = document.getElementById('builder-new-field');
if (form && list && rowTemplate instanceof HTMLTemplateElement) start();

function start() {
  const sheets = [...list.querySelectorAll('.builder-page')].map((item) => {
    const page = { number: Number(item.dataset.page), width: Number(item.dataset.width), height: Number(item.dataset.height), item };
    const sheet = document.createElement('div');
    sheet.className = 'builder-sheet';
    sheet.dataset.page = String(page.number);
    // The sheet keeps the page's proportions before and after its picture is drawn.
    sheet.style.aspectRatio = `${page.width} / ${page.height}`;
    item.append(sheet);
    page.sheet = sheet;
    return page;
  });
  if (sheets.length === 0) return;
  list.classList.add('builder-pages-drawn');
  let current = sheets[0];
  const pageOf = (number) => sheets.find((page) => page.number === number);
  const scaleOf = (page) => page.sheet.clientWidth / page.width;

  /** The field rows' inputs, read and written by name. */
  const input = (row, name) => form.elements.namedItem(`field-${row.dataset.field}-${name}`);
  const numberOf = (row, name) => Number.parseInt(input(row, name)?.value ?? '', 10);
  const rows = () => [...form.querySelectorAll('.builder-field[data-field]')];
  const roleNames = () => [...form.querySelectorAll('.builder-roles input[id$="-name"]')].map((field) => field.value);

  /** The signer roles as the role rows now name them: a field's role is chosen among them. */
  function signerNames() {
    return [...form.querySelectorAll('.builder-roles [data-role]')]
      .filter((role) => role.querySelector('select[id$="-type"]')?.value === 'signer')
      .map((role) => role.querySelector('input[id$="-name"]')?.value ?? '')
      .filter((name) => name.trim() !== '');
  }

  /** A row's choice of role follows the roles' names as they are typed. */
  function syncRoles(row) {
    const select = input(row, 'role');
    if (!(select instanceof HTMLSelectElement)) return;
    const names = signerNames();
    const chosen = select.value;
    const index = select.selectedIndex;
    const byPlace = select.options.length === names.length && index >= 0 ? names[index] : undefined;
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    select.value = names.includes(chosen) ? chosen : (byPlace ?? names[0] ?? '');
  }

  function colourOf(row) {
    const index = roleNames().indexOf(input(row, 'role')?.value ?? '');
    return Math.max(index, 0) % ROLE_COLOURS;
  }

  /** A field's place in points, kept whole and inside its page. */
  function clamp(place, page) {
    const width = Math.min(Math.max(1, Math.round(place.width)), page.width);
    const height = Math.min(Math.max(1, Math.round(place.height)), page.height);
    const x = Math.min(Math.max(0, Math.round(place.x)), Math.floor(page.width - width));
    const y = Math.min(Math.max(0, Math.round(place.y)), Math.floor(page.height - height));
    return { x, y, width, height };
  }

  function placeOf(row) {
    return { x: numberOf(row, 'x'), y: numberOf(row, 'y'), width: numberOf(row, 'width'), height: numberOf(row, 'height') };
  }

  function write(row, place) {
    for (const name of ['x', 'y', 'width', 'height']) {
      const field = input(row, name);
      if (field) field.value = String(place[name]);
    }
    draw(row);
  }

  const boxes = new Map();

  /** The row's box, on its page, where its inputs say. */
  function draw(row) {
    let box = boxes.get(row);
    if (!box) {
      box = document.createElement('button');
      box.type = 'button';
      box.className = 'builder-box';
      const handle = document.createElement('span');
      handle.className = 'builder-handle';
      handle.setAttribute('aria-hidden', 'true');
      const text = document.createElement('span');
      text.className = 'builder-box-text';
      box.append(text, handle);
      boxes.set(row, box);
      wire(row, box, handle);
    }
    const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
    const place = placeOf(row);
    if (Object.values(place).some(Number.isNaN)) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (box.parentElement !== page.sheet) page.sheet.append(box);
    const scale = scaleOf(page);
    box.style.left = `${(place.x / page.width) * 100}%`;
    box.style.top = `${(place.y / page.height) * 100}%`;
    box.style.width = `${(place.width / page.width) * 100}%`;
    box.style.height = `${(place.height / page.height) * 100}%`;
    box.dataset.scale = String(scale);
    box.className = `builder-box role-colour-${colourOf(row)}`;
    const kind = input(row, 'type');
    const kindName = kind?.selectedOptions?.[0]?.textContent ?? '';
    const legend = row.querySelector('legend')?.textContent ?? '';
    box.querySelector('.builder-box-text').textContent = kindName;
    box.setAttribute('aria-label', `${legend}: ${kindName}, ${input(row, 'role')?.value ?? ''}, ${place.x}, ${place.y}, ${place.width} × ${place.height}`);
  }

  function wire(row, box, handle) {
    box.addEventListener('focus', () => {
      current = pageOf(numberOf(row, 'page')) ?? current;
      row.classList.add('builder-row-active');
    });
    box.addEventListener('blur', () => row.classList.remove('builder-row-active'));
    box.addEventListener('keydown', (event) => {
      const step = event.shiftKey ? 10 : 1;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
      const place = placeOf(row);
      const next = event.altKey
        ? { ...place, width: place.width + move[0], height: place.height + move[1] }
        : { ...place, x: place.x + move[0], y: place.y + move[1] };
      write(row, clamp(next, page));
    });
    box.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      box.focus();
      const resizing = event.target === handle;
      const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
      const scale = scaleOf(page);
      const start = { x: event.clientX, y: event.clientY, place: placeOf(row) };
      box.setPointerCapture(event.pointerId);
      const follow = (moved) => {
        const dx = (moved.clientX - start.x) / scale;
        const dy = (moved.clientY - start.y) / scale;
        const next = resizing
          ? { ...start.place, width: start.place.width + dx, height: start.place.height + dy }
          : { ...start.place, x: start.place.x + dx, y: start.place.y + dy };
        write(row, clamp(next, page));
      };
      const stop = () => {
        box.removeEventListener('pointermove', follow);
        box.removeEventListener('pointerup', stop);
        box.removeEventListener('pointercancel', stop);
      };
      box.addEventListener('pointermove', follow);
      box.addEventListener('pointerup', stop);
      box.addEventListener('pointercancel', stop);
    });
    row.addEventListener('input', () => draw(row));
    row.addEventListener('change', () => draw(row));
  }

  /** A new row, as the form's "Add a field" makes one, of `kind` on `page` at `place`. */
  function addField(kind, page, place) {
    const index = rows().length;
    const fragment = rowTemplate.content.cloneNode(true);
    const row = fragment.querySelector('.builder-field');
    const sentinel = rowTemplate.dataset.index;
    const number = String(Number(sentinel) + 1);
    for (const element of fragment.querySelectorAll('*')) {
      for (const attribute of ['id', 'name', 'for', 'value', 'aria-describedby', 'data-field']) {
        const value = element.getAttribute(attribute);
        if (value?.includes(sentinel)) element.setAttribute(attribute, value.replaceAll(`-${sentinel}`, `-${index}`).replace(new RegExp(`^${sentinel}$`), String(index)));
      }
    }
    for (const text of fragment.querySelectorAll('legend, button')) text.textContent = text.textContent.replace(number, String(index + 1));
    const before = form.querySelector('.builder-fields > .actions');
    before.before(fragment);
    form.querySelector('.builder-fields > .hint')?.remove();
    input(row, 'type').value = kind;
    syncRoles(row);
    const pageSelect = input(row, 'page');
    pageSelect.value = String(page.number);
    write(row, clamp(place, page));
    boxes.get(row)?.focus();
    return row;
  }

  const defaultPlace = (page) => ({ x: 72, y: 72, ...NEW_FIELD, ...(page.width < 252 ? { x: 0 } : {}) });

  // The palette: a click (or Enter, Space) places the field on the current page; a drag, where dropped.
  for (const button of form.querySelectorAll('.builder-palette [data-kind]')) {
    const kind = button.dataset.kind;
    let dragged = false;
    button.addEventListener('click', (event) => {
      event.preventDefault();
      if (dragged) {
        dragged = false;
        return;
      }
      addField(kind, current, defaultPlace(current));
    });
    button.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      const start = { x: event.clientX, y: event.clientY };
      let ghost = null;
      button.setPointerCapture(event.pointerId);
      const follow = (moved) => {
        if (!ghost && Math.hypot(moved.clientX - start.x, moved.clientY - start.y) < 4) return;
        if (!ghost) {
          ghost = document.createElement('div');
          ghost.className = 'builder-ghost';
          ghost.textContent = button.textContent;
          document.body.append(ghost);
        }
        ghost.style.left = `${moved.clientX}px`;
        ghost.style.top = `${moved.clientY}px`;
      };
      const stop = (ended) => {
        button.removeEventListener('pointermove', follow);
        button.removeEventListener('pointerup', stop);
        button.removeEventListener('pointercancel', stop);
        if (!ghost) return;
        ghost.remove();
        dragged = true;
        if (ended.type !== 'pointerup') return;
        const page = sheets.find((candidate) => {
          const area = candidate.sheet.getBoundingClientRect();
          return ended.clientX >= area.left && ended.clientX <= area.right && ended.clientY >= area.top && ended.clientY <= area.bottom;
        });
        if (!page) return;
        const area = page.sheet.getBoundingClientRect();
        const scale = scaleOf(page);
        // Dropped where the pointer is: the field's top-left corner under it.
        current = page;
        // Inside the sheet's border, where the page itself begins.
        const left = area.left + page.sheet.clientLeft;
        const top = area.top + page.sheet.clientTop;
        addField(kind, page, { x: (ended.clientX - left) / scale, y: (ended.clientY - top) / scale, ...NEW_FIELD });
      };
      button.addEventListener('pointermove', follow);
      button.addEventListener('pointerup', stop);
      button.addEventListener('pointercancel', stop);
    });
  }

  for (const page of sheets) page.sheet.addEventListener('pointerdown', () => (current = page));
  // A role renamed or its type changed recolours the boxes.
  const rolesChanged = () => {
    for (const row of rows()) {
      syncRoles(row);
      draw(row);
    }
  };
  form.querySelector('.builder-roles')?.addEventListener('input', rolesChanged);
  form.querySelector('.builder-roles')?.addEventListener('change', rolesChanged);
  rows().forEach(draw);
  drawPages(sheets).catch(() => {});
  let width = list.clientWidth;
  window.addEventListener('resize', () => {
    if (Math.abs(list.clientWidth - width) < 40) return;
    width = list.clientWidth;
    rows().forEach(draw);
    drawPages(sheets).catch(() => {});
  });
}

async function drawPages(sheets) {
  const pdfjs = await import(PDFJS);
  pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER;
  // No eval: the content policy forbids it, and pdf.js does as well without it.
  const pdf = await pdfjs.getDocument({ url: list.dataset.document, isEvalSupported: false }).promise;
  for (const page of sheets) {
    if (page.number > pdf.numPages) continue;
    const drawn = await pdf.getPage(page.number);
    const natural = drawn.getViewport({ scale: 1 });
    const pixelRatio = Math.min(window.devicePixelRatio || 1, 3);
    const viewport = drawn.getViewport({ scale: Math.max(0.5, (page.sheet.clientWidth * pixelRatio) / natural.width) });
    const canvas = document.createElement('canvas');
    canvas.className = 'builder-canvas';
    // The page is described by its row of sizes; the picture adds nothing to read.
    canvas.setAttribute('aria-hidden', 'true');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await drawn.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
    const previous = page.sheet.querySelector('.builder-canvas');
    if (previous) previous.replaceWith(canvas);
    else page.sheet.prepend(canvas);
  }
}
