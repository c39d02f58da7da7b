/* The demo request form (book-a-demo.html); a file of its own, as the CSP allows no inline script. */
/* global document, window */
(function () {
  var TO = 'support@flashbooth.example';
  var form = document.getElementById('demo-form');
  var done = document.getElementById('done');
  var rules = {
    name: function (v) {
      return v ? '' : 'Please enter your name.';
    },
    venue: function (v) {
      return v ? '' : 'Please enter your venue or company.';
    },
    phone: function (v) {
      return v.replace(/[^\d+]/g, '').length >= 10 ? '' : 'Please enter a valid phone number.';
    },
    email: function (v) {
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? '' : 'Please enter a valid email address.';
    },
    city: function (v) {
      return v ? '' : 'Please enter your city.';
    },
  };

  function check(name) {
    var input = form.elements[name];
    var message = rules[name](input.value.trim());
    document.getElementById(name + '-error').textContent = message;
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    return message === '';
  }

  Object.keys(rules).forEach(function (name) {
    form.elements[name].addEventListener('blur', function () {
      if (this.value.trim() || this.hasAttribute('aria-invalid')) check(name);
    });
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var firstInvalid = null;
    Object.keys(rules).forEach(function (name) {
      if (!check(name) && !firstInvalid) firstInvalid = form.elements[name];
    });
    if (firstInvalid) {
      firstInvalid.focus();
      return;
    }
    var v = function (name) {
      return form.elements[name].value.trim();
    };
    var subject = 'Demo request: ' + v('venue') + ' (' + v('city') + ')';
    var body = [
      'Name: ' + v('name'),
      'Venue / company: ' + v('venue'),
      'Phone: ' + v('phone'),
      'Email: ' + v('email'),
      'City: ' + v('city'),
      '',
      'Message:',
      v('message') || '(none)',
    ].join('\r\n');
    var href =
      'mailto:' +
      TO +
      '?subject=' +
      encodeURIComponent(subject) +
      '&body=' +
      encodeURIComponent(body);
    // Inside the Book a Demo dialog this page is framed: open the mail app from the top window.
    try {
      window.top.location.href = href;
    } catch {
      window.location.href = href;
    }
    done.hidden = false;
  });
})();
