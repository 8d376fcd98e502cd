// The offline screen (client/public/offline.html): shows the text in the UI language chosen as the app
// does (client/i18n initialLanguage: the stored choice, else English for an en* browser, else German,
// SPEC §9) and reloads the page the user asked for once the connection is back.
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
  var buttons = document.querySelectorAll('button[data-retry]')
  for (var j = 0; j < buttons.length; j++) buttons[j].addEventListener('click', reload)
})()
