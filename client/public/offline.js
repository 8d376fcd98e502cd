// The offline screen (client/public/offline.html): shows the text in the UI language chosen as the app
// does (client/i18n initialLanguage: the stored choice, else English for an en* browser, else German,
// SPEC §9) and reloads the page the user asked for once the connection, or the server, is back.
;(function () {
  var lang = null
  try {
    lang = localStorage.getItem('cockpit.language')
  } catch (e) {}
  if (!lang || !document.querySelector('section[lang="' + lang + '"]')) lang = /^en/i.test(navigator.language || 'en') ? 'en' : 'de'
  document.documentElement.lang = lang
  var sections = document.querySelectorAll('section[lang]')
  for (var i = 0; i < sections.length; i++) sections[i].hidden = sections[i].getAttribute('lang') !== lang
  var title = document.querySelector('section[lang="' + lang + '"] h1')
  if (title) document.title = title.textContent + ' · Cockpit'
  var reload = function () {
    location.reload()
  }
  window.addEventListener('online', reload)
  // The 'online' event only tells of the device's own link: a server or Wi-Fi that comes back without it
  // (or a browser that misses the change) would leave the screen up. Ask the server itself, every 5 s
  // and then less often (up to 30 s), and reload once it answers.
  var delay = 5000
  var probe = function () {
    fetch('/api/health', { cache: 'no-store' })
      .then(function (r) {
        if (r.ok) reload()
        else retry()
      })
      .catch(retry)
  }
  var retry = function () {
    delay = Math.min(delay * 1.5, 30000)
    setTimeout(probe, delay)
  }
  setTimeout(probe, delay)
  var buttons = document.querySelectorAll('button[data-retry]')
  for (var j = 0; j < buttons.length; j++) buttons[j].addEventListener('click', reload)
})()
