// Travelog's page: importing files. Pick files or drop them on the page; each is uploaded as it is
// (POST /api/v1/imports, the same importer as `travelog import`), with the bytes sent and, while
// the server reads it, the locations read so far; then a summary per file with every rejected
// item and where it was. When something was stored the page is told ('travelog:history-changed')
// and draws the new history.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  const megabytes = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

  /** "1 visit", "2,345 visits": a count in the browser's locale with its noun, singular for one. */
  const count = (number, noun) => `${number.toLocaleString()} ${noun}${number === 1 ? '' : 's'}`;

  /** One file through the upload route; `onProgress(text, fraction)` while it goes. Resolves to the report. */
  function upload(file, onProgress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      const query = new URLSearchParams({ filename: file.name, device: $('import-device').value || 'imports' });
      request.open('POST', `/api/v1/imports?${query}`);
      request.setRequestHeader('Accept', 'application/x-ndjson');
      request.setRequestHeader('X-Requested-With', 'fetch');
      request.setRequestHeader('Content-Type', 'application/octet-stream');
      let seen = 0;
      let report = null;
      const readLines = () => {
        const text = request.responseText;
        const end = text.lastIndexOf('\n');
        if (end < seen) return;
        for (const line of text.slice(seen, end).split('\n')) {
          if (!line.trim()) continue;
          let message;
          try { message = JSON.parse(line); } catch (_) { continue; }
          if (message.progress) {
            const { bytesRead, totalBytes, locations } = message.progress;
            onProgress(`${file.name}: read ${megabytes(bytesRead)}${totalBytes ? ` of ${megabytes(totalBytes)}` : ''}, `
              + count(locations, 'location'), totalBytes ? bytesRead / totalBytes : null);
          } else if (message.report) {
            report = message.report;
          }
        }
        seen = end + 1;
      };
      request.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) {
          onProgress(`${file.name}: sent ${megabytes(event.loaded)} of ${megabytes(event.total)}`, event.loaded / event.total);
        }
      });
      request.addEventListener('progress', readLines);
      request.addEventListener('load', () => {
        readLines();
        if (report) { resolve(report); return; }
        let message = `${request.status} ${request.statusText}`;
        try { message = JSON.parse(request.responseText).error || message; } catch (_) { /* not JSON */ }
        reject(new Error(message));
      });
      request.addEventListener('error', () => reject(new Error('The server cannot be reached.')));
      request.send(file);
    });
  }

  /** A report as list items: what was stored, and every rejected item with its position. */
  function describe(report) {
    const item = document.createElement('li');
    const title = document.createElement('p');
    const name = report.file || 'file';
    if (report.status === 'imported') {
      title.textContent = `${name}: ${count(report.imported, 'new location')}`
        + (report.duplicates ? `, ${report.duplicates.toLocaleString()} already stored` : '')
        + (report.rejected ? `, ${report.rejected.toLocaleString()} rejected` : '')
        + (report.visits ? `, ${count(report.visits, 'visit')}` : '');
    } else if (report.status === 'skipped') {
      title.textContent = `${name}: skipped (${report.reason})`;
    } else {
      title.textContent = `${name}: not imported, nothing stored: ${report.error}`;
      item.classList.add('error');
    }
    item.append(title);
    const rejections = report.rejections || [];
    if (rejections.length) {
      const list = document.createElement('ul');
      list.className = 'rejections';
      for (const rejection of rejections) {
        const entry = document.createElement('li');
        const where = rejection.line ? `line ${rejection.line}, column ${rejection.column}` : `byte ${rejection.byteOffset}`;
        entry.textContent = `${where}: ${rejection.reason}`;
        list.append(entry);
      }
      if (report.rejected > rejections.length) {
        const more = document.createElement('li');
        more.textContent = `… and ${(report.rejected - rejections.length).toLocaleString()} more`;
        list.append(more);
      }
      item.append(list);
    }
    for (const part of report.files || []) item.append(describe(part));
    return item;
  }

  async function importFiles(files) {
    if (!files.length) return;
    const status = $('import-status');
    const bar = $('import-progress');
    const summary = $('import-summary');
    const button = $('import-submit');
    summary.replaceChildren();
    button.disabled = true;
    bar.hidden = false;
    let stored = 0;
    let first = null;
    let last = null;
    try {
      for (const file of files) {
        try {
          const report = await upload(file, (text, fraction) => {
            status.textContent = text;
            if (fraction === null) bar.removeAttribute('value'); else bar.value = fraction;
          });
          stored += report.imported || 0;
          for (const part of [report, ...(report.files || [])]) {
            if (!part.imported || !part.firstTimestamp) continue;
            const start = new Date(part.firstTimestamp), end = new Date(part.lastTimestamp);
            if (!first || start < first) first = start;
            if (!last || end > last) last = end;
          }
          summary.append(describe(report));
        } catch (error) {
          summary.append(describe({ file: file.name, status: 'failed', error: error.message }));
        }
      }
      status.textContent = `Done: ${count(stored, 'new location')} from ${count(files.length, 'file')}.`;
    } finally {
      bar.hidden = true;
      button.disabled = false;
      $('import-panel').dataset.done = String(Number($('import-panel').dataset.done || 0) + 1);
    }
    const day = (date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    if (stored > 0) {
      window.dispatchEvent(new CustomEvent('travelog:history-changed',
        { detail: { stored, from: first && day(first), to: last && day(last) } }));
    }
  }

  function bind() {
    const form = $('import-form');
    if (!form) return;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      importFiles([...$('import-files').files]);
    });
    const zone = document.body;
    zone.addEventListener('dragover', (event) => {
      if (![...event.dataTransfer.types].includes('Files')) return;
      event.preventDefault();
      document.body.classList.add('dropping');
    });
    zone.addEventListener('dragleave', (event) => {
      if (event.target === document.body || !event.relatedTarget) document.body.classList.remove('dropping');
    });
    zone.addEventListener('drop', (event) => {
      if (!event.dataTransfer.files.length) return;
      event.preventDefault();
      document.body.classList.remove('dropping');
      importFiles([...event.dataTransfer.files]);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', bind);
  else bind();
})();
