-- Neovim end to end: starts `yttlint server` with Neovim's built-in LSP client on a copy of
-- fixtures/lsp, and checks the diagnostics of the broken template, a hover, a definition, and a
-- rename of a data value (prepareRename, then Neovim's rename applying the server's edits).
-- Run: YTTLINT_BIN=... YTTLINT_REPO=... nvim --headless --clean -c "luafile tests/data/nvim/lsp.lua"
-- Exits 0 when every check passes, 1 otherwise (with the reason on stderr).

local bin = os.getenv("YTTLINT_BIN")
local repo = os.getenv("YTTLINT_REPO")

local function fail(msg)
  io.stderr:write("nvim lsp test: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function check(ok, msg)
  if not ok then
    fail(msg)
  end
end

check(bin and repo, "YTTLINT_BIN and YTTLINT_REPO must be set")
local file = repo .. "/config/deployment.yml"
vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()

local config = { name = "yttlint", cmd = { bin, "server" }, root_dir = repo }
local client_id
if vim.lsp.start then
  client_id = vim.lsp.start(config)
else
  -- Neovim 0.7 (Debian 12): the same in two steps.
  client_id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, client_id)
end
check(client_id, "the client did not start")

-- Diagnostics of the broken line (`data.values.app.prot`, line 16).
local got = vim.wait(30000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
check(got, "no diagnostics within 30 s")
local d = vim.diagnostic.get(buf)[1]
check(d.lnum == 15, "diagnostic on line " .. tostring(d.lnum + 1) .. ", expected 16")
check(d.message:find("prot", 1, true), "unexpected message: " .. d.message)
check(d.source == "yttlint", "unexpected source: " .. tostring(d.source))

local client = vim.lsp.get_client_by_id(client_id)
local function at(method, needle, plus)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for n, line in ipairs(lines) do
    local i = line:find(needle, 1, true)
    if i then
      local params = {
        textDocument = { uri = vim.uri_from_bufnr(buf) },
        position = { line = n - 1, character = i - 1 + plus },
      }
      local res = client.request_sync(method, params, 10000, buf)
      check(res and not res.err, method .. " failed: " .. vim.inspect(res))
      return res.result
    end
  end
  fail(needle .. " not in the buffer")
end

-- Hover on a data value: its schema type, default and description.
local hover = at("textDocument/hover", "data.values.app.port", 17)
check(hover and hover.contents, "no hover")
local text = hover.contents.value
check(text:find("integer", 1, true) and text:find("8080", 1, true), "hover says: " .. tostring(text))
check(text:find("The port the service listens on", 1, true), "hover lacks the description: " .. text)

-- Definition of a loaded function: its def in lib/helpers.star.
local def = at("textDocument/definition", "labels(app", 1)
check(def, "no definition")
local loc = def.uri and def or def[1]
check(loc.uri:sub(-#"config/lib/helpers.star") == "config/lib/helpers.star", "definition in " .. loc.uri)
check(loc.range.start.line == 2, "definition on line " .. loc.range.start.line)

-- Rename of a data value. prepareRename first (the client's own request): the key's range and
-- name. Then Neovim's own rename (`vim.lsp.buf.rename`, which asks prepareRename again and
-- applies the workspace edit the server answers): the buffer, the schema and the values
-- document all name the new key.
local line_of = function(b, needle)
  for n, l in ipairs(vim.api.nvim_buf_get_lines(b, 0, -1, false)) do
    if l:find(needle, 1, true) then
      return n, l
    end
  end
end
local prepared = at("textDocument/prepareRename", "str(data.values.app.port)", 21)
check(prepared and prepared.placeholder == "port", "prepareRename: " .. vim.inspect(prepared))
local n, line = line_of(buf, "str(data.values.app.port)")
local col = line:find("str(data.values.app.port)", 1, true) + 20
check(prepared.range.start.line == n - 1, "prepareRename range: " .. vim.inspect(prepared.range))
check(prepared.range.start.character == col - 1, "prepareRename range: " .. vim.inspect(prepared.range))
check(prepared.range["end"].character == col + 3, "prepareRename range: " .. vim.inspect(prepared.range))
vim.api.nvim_win_set_cursor(0, { n, col })
vim.lsp.buf.rename("listen_port")
local renamed = vim.wait(10000, function()
  return line_of(buf, "str(data.values.app.listen_port)") ~= nil
end, 20)
check(renamed, "the rename did not reach the buffer: " .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"))
check(line_of(buf, "data.values.app.port") == nil, "the old name is left in the buffer")
-- The other files of the edit, in buffers Neovim opened for them (not yet saved).
for _, want in ipairs({ { "config/schema.yml", "  listen_port: 8080" }, { "config/values.yml", "  listen_port: 9090" } }) do
  local other = vim.fn.bufnr(repo .. "/" .. want[1])
  check(other > 0, want[1] .. " has no buffer: the edit did not name it")
  check(line_of(other, want[2]) ~= nil, want[1] .. " lacks `" .. want[2] .. "`: "
    .. table.concat(vim.api.nvim_buf_get_lines(other, 0, -1, false), "\n"))
  check(line_of(other, " port:") == nil, want[1] .. " still has the old key")
end
-- What is not a data value is refused, and nothing is edited.
local refused = client.request_sync("textDocument/prepareRename", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 8, character = 2 },
}, 10000, buf)
check(refused and refused.err, "prepareRename off a data value: " .. vim.inspect(refused))
check(tostring(refused.err.message):find("data.values", 1, true), "refusal: " .. vim.inspect(refused.err))

vim.lsp.stop_client(client_id)
io.stdout:write("nvim lsp test: ok\n")
vim.cmd("qall!")
