// Sign-in: a bearer token made with `skillnode token add NAME` on the node's host. It is
// checked once against the node, then kept in sessionStorage (this tab only) and sent in the
// Authorization header of every API call; sign-out forgets it.
import {el, append, message} from './dom.js';
import {get, setToken, token} from './api.js';

export function render(main, {navigate}) {
  document.title = 'Sign in - skillnode';
  main.append(el('h1', {}, 'Sign in'));
  const status = el('div', {'aria-live': 'polite', id: 'signin-status'});
  if (token()) {
    const out = el('button', {type: 'button', id: 'signout'}, 'Sign out');
    out.addEventListener('click', () => {
      setToken(null);
      navigate('/ui/signin', {replace: true});
    });
    append(main, [el('p', {}, 'Signed in: private skills of this node are shown. The token is kept in this tab only.'), out, status]);
    return null;
  }
  const input = el('input', {id: 'token', name: 'token', type: 'password', required: true,
                             autocomplete: 'off', spellcheck: 'false'});
  const form = el('form', {class: 'signin'},
    el('label', {for: 'token'}, 'Bearer token', input),
    el('button', {type: 'submit'}, 'Sign in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const candidate = input.value.trim();
    if (!candidate) return;
    setToken(candidate);
    const check = await get('/api/skills?limit=1');
    if (check.status === 401 || check.status === 429) {
      setToken(null);
      status.replaceChildren(message('error', check.error));
      return;
    }
    input.value = '';
    navigate('/ui/skills');
  });
  append(main, [el('p', {}, 'A token from `skillnode token add NAME` on the node\'s host shows that node\'s private skills. It stays in this tab until you sign out or close it, and is only ever sent in the Authorization header.'), form, status]);
  return null;
}
