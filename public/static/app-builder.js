// The template builder's pages: the uploaded PDF drawn by pdf.js, each field row a box over its
// page in its role's colour. Boxes are dragged from the palette onto a page, moved and resized
// with the mouse, and moved with the arrow keys (1 pt, with Shift 10; with Alt they resize). Every
// change is written into the row's inputs, so saving stays the form's plain post; without script
// the rows are the builder. A radio group's options each have a box of their own inside the
// group's box, placed the same ways: the group's box moves them along and grows to hold them.
const PDFJS = '/static/vendor/pdfjs/pdf.min.mjs';
const PDFJS_WORKER = '/static/vendor/pdfjs/pdf.worker.min.mjs';
const ROLE_COLOURS = 8;
/** A new field's size in points, as the form's own "Add a field" makes it. */
const NEW_FIELD = { width: 180, height: 36 };
/** The largest side of a new option's box, as the server lays one out (radioBoxesOf). */
const OPTION_SIDE = 16;

const form = document.querySelector('.builder-form');
const list = document.querySelector('.builder-pages');
const rowTemplate = document.getElementById('builder-new-field');
const optionTemplate = document.getElementById('builder-new-option');
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

  function setPlace(row, place) {
    for (const name of ['x', 'y', 'width', 'height']) {
      const field = input(row, name);
      if (field) field.value = String(place[name]);
    }
  }

  /**
   * The field at `place`. A radio group's options move with a move of its box, and its box, moved
   * or resized, still holds them all (the rule a template's radio group keeps).
   */
  function write(row, place) {
    const before = placeOf(row);
    const options = isRadio(row) ? optionPlaces(row) : [];
    const moved = place.width === before.width && place.height === before.height;
    if (moved && options.length > 0 && !Object.values(before).some(Number.isNaN)) {
      const dx = place.x - before.x;
      const dy = place.y - before.y;
      options.forEach((option, index) => setOptionPlace(row, index, { ...option, x: option.x + dx, y: option.y + dy }));
    }
    setPlace(row, moved ? place : holding(place, optionPlaces(row)));
    draw(row);
  }

  /** The smallest box holding `place` and every one of `others`. */
  function holding(place, others) {
    const valid = others.filter((other) => !Object.values(other).some(Number.isNaN));
    if (valid.length === 0) return place;
    const left = Math.min(place.x, ...valid.map((other) => other.x));
    const top = Math.min(place.y, ...valid.map((other) => other.y));
    const right = Math.max(place.x + place.width, ...valid.map((other) => other.x + other.width));
    const bottom = Math.max(place.y + place.height, ...valid.map((other) => other.y + other.height));
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  // A radio group's options: the lines of its options input, each with a box (field-{i}-option-{j}-…).
  const isRadio = (row) => input(row, 'type')?.value === 'radio';
  const optionInput = (row, index, name) => form.elements.namedItem(`field-${row.dataset.field}-option-${index}-${name}`);
  const optionSets = (row) => [...row.querySelectorAll('.builder-option')];
  const optionLines = (row) =>
    (input(row, 'options')?.value ?? '')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
  function optionPlaceOf(row, index) {
    const number = (name) => Number.parseInt(optionInput(row, index, name)?.value ?? '', 10);
    return { x: number('x'), y: number('y'), width: number('width'), height: number('height') };
  }
  const optionPlaces = (row) => optionSets(row).map((_, index) => optionPlaceOf(row, index));
  function setOptionPlace(row, index, place) {
    for (const name of ['x', 'y', 'width', 'height']) {
      const field = optionInput(row, index, name);
      if (field) field.value = String(place[name]);
    }
  }
  /** An option at `place`: inside its page, and its group's box grown to hold it. */
  function writeOption(row, index, place) {
    const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
    setOptionPlace(row, index, clamp(place, page));
    setPlace(row, holding(placeOf(row), optionPlaces(row)));
    draw(row);
  }

  /**
   * A radio row's option boxes follow its lines: a line added gets a box laid out in the group's
   * box as the server lays one out; a line removed takes its box along.
   */
  function syncOptions(row) {
    if (!isRadio(row) || !(optionTemplate instanceof HTMLTemplateElement)) return;
    const container = row.querySelector('[data-option-boxes]');
    if (!container) return;
    const lines = optionLines(row);
    const sets = optionSets(row);
    for (const extra of sets.slice(lines.length)) extra.remove();
    const place = placeOf(row);
    for (let index = sets.length; index < lines.length; index++) {
      const fragment = optionTemplate.content.cloneNode(true);
      const [field, option] = [optionTemplate.dataset.index, optionTemplate.dataset.option];
      for (const element of fragment.querySelectorAll('*')) {
        for (const attribute of ['id', 'name', 'for', 'aria-describedby', 'data-option']) {
          const value = element.getAttribute(attribute);
          if (value === null) continue;
          const renamed = value.replaceAll(`field-${field}-option-${option}-`, `field-${row.dataset.field}-option-${index}-`);
          element.setAttribute(attribute, attribute === 'data-option' ? String(index) : renamed);
        }
      }
      container.append(fragment);
      const side = Math.max(1, Math.min(OPTION_SIDE, place.height, Math.floor(place.width / lines.length)));
      if (!Object.values(place).some(Number.isNaN))
        setOptionPlace(row, index, { x: place.x + Math.floor((index * place.width) / lines.length), y: place.y, width: side, height: side });
    }
    if (lines.length > 0 && !container.querySelector('.hint')) {
      const hint = document.createElement('p');
      hint.className = 'hint';
      hint.textContent = optionTemplate.dataset.hint ?? '';
      container.prepend(hint);
    }
    optionSets(row).forEach((set, index) => {
      const legend = set.querySelector('legend');
      if (legend) legend.textContent = (optionTemplate.dataset.legend ?? '').replace('{number}', String(index + 1)).replace('{value}', lines[index] ?? '');
    });
  }

  /** Only the inputs the row's kind takes are shown (without script, all are). */
  function showKindInputs(row) {
    const kind = input(row, 'type')?.value ?? '';
    for (const part of row.querySelectorAll('[data-kinds]')) part.hidden = !part.dataset.kinds.split(' ').includes(kind);
  }

  const boxes = new Map();

  /** The row's box, on its page, where its inputs say. */
  function draw(row) {
    let box = boxes.get(row);
    if (!box) {
      box = boxElement();
      boxes.set(row, box);
      wireBox(row, box, { placeOf: () => placeOf(row), write: (next) => write(row, next), active: () => row });
      row.addEventListener('input', () => changed(row));
      row.addEventListener('change', () => changed(row));
    }
    showKindInputs(row);
    // The row in the side panel wears its role's colour as its box does, when the role changes too.
    for (const name of [...row.classList]) if (name.startsWith('role-colour-')) row.classList.remove(name);
    row.classList.add(`role-colour-${colourOf(row)}`);
    const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
    const place = placeOf(row);
    if (!placeBox(box, place, page, `builder-box role-colour-${colourOf(row)}`)) return;
    const kind = input(row, 'type');
    const kindName = kind?.selectedOptions?.[0]?.textContent ?? '';
    const legend = row.querySelector('legend')?.textContent ?? '';
    box.querySelector('.builder-box-text').textContent = kindName;
    box.setAttribute('aria-label', `${legend}: ${kindName}, ${input(row, 'role')?.value ?? ''}, ${place.x}, ${place.y}, ${place.width} × ${place.height}`);
    drawOptions(row, page);
  }

  const optionBoxes = new Map();

  /** A radio row's option boxes over its page, above the group's box. */
  function drawOptions(row, page) {
    const drawn = optionBoxes.get(row) ?? [];
    const places = isRadio(row) ? optionPlaces(row) : [];
    for (const extra of drawn.splice(places.length)) extra.remove();
    const legends = optionSets(row).map((set) => set.querySelector('legend')?.textContent ?? '');
    places.forEach((place, index) => {
      let box = drawn[index];
      if (!box) {
        box = boxElement();
        drawn[index] = box;
        wireBox(row, box, {
          placeOf: () => optionPlaceOf(row, index),
          write: (next) => writeOption(row, index, next),
          active: () => optionSets(row)[index],
        });
      }
      if (!placeBox(box, place, page, `builder-box builder-option-box role-colour-${colourOf(row)}`)) return;
      box.querySelector('.builder-box-text').textContent = String(index + 1);
      box.setAttribute('aria-label', `${legends[index] ?? ''}, ${place.x}, ${place.y}, ${place.width} × ${place.height}`);
    });
    optionBoxes.set(row, drawn);
  }

  /** Shows `box` at `place` on `page`, or hides it while its inputs do not hold a place; whether it shows. */
  function placeBox(box, place, page, className) {
    box.hidden = Object.values(place).some(Number.isNaN);
    if (box.hidden) return false;
    if (box.parentElement !== page.sheet) page.sheet.append(box);
    position(box, place, page);
    box.className = className;
    return true;
  }

  function position(box, place, page) {
    box.style.left = `${(place.x / page.width) * 100}%`;
    box.style.top = `${(place.y / page.height) * 100}%`;
    box.style.width = `${(place.width / page.width) * 100}%`;
    box.style.height = `${(place.height / page.height) * 100}%`;
  }

  /** A box on a page: a button (so it takes the focus and the keys), its text and its resize handle. */
  function boxElement() {
    const box = document.createElement('button');
    box.type = 'button';
    box.className = 'builder-box';
    const handle = document.createElement('span');
    handle.className = 'builder-handle';
    handle.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    text.className = 'builder-box-text';
    box.append(text, handle);
    return box;
  }

  /** A row's inputs changed: a radio group's option boxes follow its lines, then all is drawn again. */
  function changed(row) {
    syncOptions(row);
    draw(row);
  }

  /** A box moved and resized by keys and pointer; `target` reads and writes its place and names the part of the form it is. */
  function wireBox(row, box, target) {
    const handle = box.querySelector('.builder-handle');
    box.addEventListener('focus', () => {
      current = pageOf(numberOf(row, 'page')) ?? current;
      target.active()?.classList.add('builder-row-active');
    });
    box.addEventListener('blur', () => target.active()?.classList.remove('builder-row-active'));
    box.addEventListener('keydown', (event) => {
      const step = event.shiftKey ? 10 : 1;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
      const place = target.placeOf();
      const next = event.altKey
        ? { ...place, width: place.width + move[0], height: place.height + move[1] }
        : { ...place, x: place.x + move[0], y: place.y + move[1] };
      target.write(clamp(next, page));
    });
    box.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      box.focus();
      const resizing = event.target === handle;
      const page = pageOf(numberOf(row, 'page')) ?? sheets[0];
      const scale = scaleOf(page);
      const start = { x: event.clientX, y: event.clientY, place: target.placeOf() };
      box.setPointerCapture(event.pointerId);
      const follow = (moved) => {
        const dx = (moved.clientX - start.x) / scale;
        const dy = (moved.clientY - start.y) / scale;
        const next = resizing
          ? { ...start.place, width: start.place.width + dx, height: start.place.height + dy }
          : { ...start.place, x: start.place.x + dx, y: start.place.y + dy };
        target.write(clamp(next, page));
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
