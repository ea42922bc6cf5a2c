-- Driven by nvim_test.sh: Neovim's LSP client starts keydecide-ls, text is typed into buffers
-- (so Neovim sends incremental didChange), completion is requested at the cursor.
local ls, work = os.getenv('KD_LS'), os.getenv('KD_WORK')

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function check(ok, msg)
  if not ok then fail(msg) end
  io.stdout:write('ok: ' .. msg .. '\n')
end

vim.cmd('filetype on')
local ready = false
local client_id = vim.lsp.start_client({
  name = 'keydecide-ls',
  cmd = {ls, '--store', work .. '/user.db'},
  root_dir = work,
  flags = {debounce_text_changes = 0},
  on_init = function() ready = true end,
})
if not client_id then fail('the client did not start') end

-- Opens `name` with filetype `ft`, attached to the server, and types `keys` (insert mode).
local function open_and_type(name, ft, keys)
  vim.cmd('edit! ' .. work .. '/' .. name)
  vim.bo.filetype = ft
  vim.lsp.buf_attach_client(0, client_id)
  if not vim.wait(15000, function() return ready end, 20) then fail('initialize timed out') end
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'x', false)
end

-- Labels of the completion items at (line, character) of the current buffer, in order.
local function complete(line, character)
  local params = {textDocument = vim.lsp.util.make_text_document_params(),
                  position = {line = line, character = character}}
  local replies = vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 10000)
  if not replies or not replies[client_id] then fail('no completion reply') end
  local reply = replies[client_id]
  if reply.err then fail('completion error: ' .. vim.inspect(reply.err)) end
  local items = reply.result.items or reply.result
  local labels = {}
  for _, item in ipairs(items) do table.insert(labels, item.label) end
  return labels, items
end

-- Markdown: the first item for "see you tomo" is "tomorrow".
open_and_type('notes.md', 'markdown', 'iPlans\n\nsee you tomo<Esc>')
local labels, items = complete(2, 12)
check(labels[1] == 'tomorrow', 'markdown "see you tomo" offers ' .. vim.inspect(labels))
-- Taking it (the item's edit applied as a client does) and typing on: next words.
vim.lsp.util.apply_text_edits({items[1].textEdit}, 0, 'utf-16')
check(vim.api.nvim_buf_get_lines(0, 2, 3, false)[1] == 'see you tomorrow',
  'the item replaces the word being typed')
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A <Esc>', true, false, true), 'x', false)
labels = complete(2, 17)
check(#labels > 0, 'next words after "see you tomorrow ": ' .. vim.inspect(labels))
vim.cmd('write')

-- C: nothing in code, prose in a comment.
open_and_type('main.c', 'c', 'iint main(void) { return tomo<Esc>')
labels = complete(0, 28)
check(#labels == 0, 'no prose completion in C code: ' .. vim.inspect(labels))
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('o// see you tomo<Esc>', true, false, true),
  'x', false)
labels = complete(1, 15)
check(labels[1] == 'tomorrow', 'in a C comment "see you tomo" offers ' .. vim.inspect(labels))

-- A file that was on disk is context, not learning: keys typed after it are.
open_and_type('existing.md', 'markdown', 'Go<Esc>')
labels = complete(1, 0)
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('Awombat wombat <Esc>', true, false, true),
  'x', false)
labels = complete(1, 14)
check(#labels > 0, 'next words in a file that was on disk: ' .. vim.inspect(labels))

-- Shutdown and exit as Neovim does them.
vim.lsp.stop_client(client_id)
if not vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20) then
  fail('the server did not stop')
end
io.stdout:write('ok: shutdown\n')
vim.cmd('qa!')
