-- Neovim end to end: starts `yttlint server` with Neovim's built-in LSP client on a copy of
-- fixtures/lsp, and checks the diagnostics of the broken template, a hover and a definition.
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

vim.lsp.stop_client(client_id)
io.stdout:write("nvim lsp test: ok\n")
vim.cmd("qall!")
