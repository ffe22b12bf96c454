/*
 * Embedded signing, for the integrator's own page: shows a signing link in a frame and reports
 * what the signer does there. Plain ES2019, no build step, no dependency:
 *
 *   <script src="https://esign.example.com/static/embed.js"></script>
 *   ESign.mount(document.getElementById('signing'), signingUrl, {
 *     onEvent: (event) => console.log(event.type, event.envelope_id, event.recipient_id),
 *   });
 *
 * `event.type` is `ready`, `viewed`, `signed`, `declined` or `completed`, in the order they
 * happen (`ready` again on each page the frame shows). The page's origin must be one of the
 * company's allowed origins (PUT /admin/v1/companies/{id}/embedding): the signing page refuses any
 * other parent, and tells nothing to a parent but the one named on its link.
 */
(function () {
  'use strict';

  var PREFIX = 'esign:';

  /**
   * Frames `signingUrl` inside `element`, naming this page's origin to it (`embed_origin`), and
   * calls `options.onEvent` for each message from that frame, from the signing service's origin
   * only. Answers `{ frame, unmount() }`.
   */
  function mount(element, signingUrl, options) {
    var settings = options || {};
    var url = new URL(signingUrl, window.location.href);
    var serviceOrigin = url.origin;
    url.searchParams.set('embed_origin', window.location.origin);

    var frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = settings.title || 'Document to sign';
    // The link is a credential: this page's address need not reach the service with it, nor the reverse.
    frame.referrerPolicy = 'no-referrer';
    frame.style.width = '100%';
    frame.style.height = settings.height || '80vh';
    frame.style.border = '0';

    function onMessage(event) {
      // Another frame, another site, or a script of this page pretending: none of them is the signing page.
      if (event.origin !== serviceOrigin || event.source !== frame.contentWindow) return;
      var data = event.data;
      if (!data || typeof data.type !== 'string' || data.type.indexOf(PREFIX) !== 0) return;
      if (typeof settings.onEvent === 'function') {
        settings.onEvent({ type: data.type.slice(PREFIX.length), envelope_id: data.envelope_id, recipient_id: data.recipient_id });
      }
    }

    window.addEventListener('message', onMessage);
    element.appendChild(frame);
    return {
      frame: frame,
      unmount: function () {
        window.removeEventListener('message', onMessage);
        frame.remove();
      },
    };
  }

  window.ESign = { mount: mount };
})();
