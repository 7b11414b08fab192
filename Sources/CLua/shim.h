// CLua: the only C that lifesim needs around Debian's Lua 5.4.
//
// Swift cannot import Lua's function-like macros, its variadic functions, or
// LUA_REGISTRYINDEX, and it must never be longjmp'ed through. Every helper
// here exists for one of those reasons; each says which macro it replaces or
// why it has to be C. Only ScriptHost imports this module (`internal import`).
#ifndef LIFESIM_CLUA_SHIM_H
#define LIFESIM_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

// MARK: - Macros Swift cannot import

/// Replaces the macro `LUA_REGISTRYINDEX`.
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
/// Replaces the macro `lua_upvalueindex(i)`.
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }
/// Replaces the macro `lua_pop(L, n)`.
static inline void clua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
/// Replaces the macro `lua_newtable(L)`.
static inline void clua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
/// Replaces the macro `lua_pcall(L, n, r, f)`.
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
  return lua_pcallk(L, nargs, nresults, msgh, 0, NULL);
}
/// Replaces the macro `lua_insert(L, idx)`.
static inline void clua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
/// Replaces the macro `lua_remove(L, idx)`.
static inline void clua_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }
/// Replaces the macro `lua_tonumber(L, idx)`.
static inline lua_Number clua_tonumber(lua_State *L, int idx) { return lua_tonumberx(L, idx, NULL); }

// MARK: - Limits shared by the allocator, the count hook and the trampoline

/// Per-`lua_State` limits. Lives in host memory; a pointer to it sits in the
/// state's extra space (`lua_getextraspace`) so C hooks can find it.
typedef struct clua_limits {
  size_t bytes_in_use;
  size_t bytes_limit;          // 0: unlimited
  int host_active;             // >0 while a Swift frame is on the stack: never refuse memory then
  int memory_exceeded;         // set once an allocation was refused
  long instructions_left;      // decremented by the count hook
  long instructions_step;      // the hook's period
  int instructions_exceeded;   // set once the budget ran out
  int enforcing;               // 0 outside app code: the hook does nothing
  int aborted;                 // the host ended the process: unwind every Lua frame
  void *host;                  // the Swift object owning this state (found from any coroutine)
  long long wall_limit_ns;     // how long the current host call may run; 0: no guard
  long long wall_deadline_ns;  // CLOCK_MONOTONIC time it must end by, set at the hook's first
                               // look (most host calls never reach the hook); 0: not yet
  int wall_exceeded;           // set once the wall-clock guard fired
  char *arena;                 // the state's own memory range (`clua_arena_*`); NULL: malloc
  int recording;               // host functions made now belong to the arena's checkpoint
} clua_limits;

// MARK: - A state's own memory range, for checkpoints

/// Why it is C: the allocator runs inside Lua with only C frames around it.
/// An arena is one reserved range whose first bytes are this header; every block the state
/// allocates comes from it, in size classes, so the state's whole heap (and the allocator's
/// own lists) is the range's first `top` bytes. Copying those bytes out is a checkpoint;
/// copying them back at the same address restores the state exactly, every pointer in it
/// still valid. Blocks over the largest class, or once the range is full, come from malloc
/// (`outside_live` counts them): a checkpoint is refused while any is live.
#define CLUA_ARENA_SMALL 64                 /* classes of 16 bytes up to 1 KiB */
#define CLUA_ARENA_CLASSES (CLUA_ARENA_SMALL + 11) /* then powers of two up to 2 MiB */
typedef struct clua_arena_header {
  size_t size;
  size_t top;
  size_t outside_live;
  void *free_lists[CLUA_ARENA_CLASSES];
} clua_arena_header;

/// The class of a block of `n` bytes (n > 0), or -1 when it is too big for the arena.
static inline int clua_arena_class(size_t n) {
  if (n <= 16 * CLUA_ARENA_SMALL) return (int)((n + 15) >> 4) - 1;
  int c = CLUA_ARENA_SMALL;
  size_t cap = 2048;
  while (cap < n) { cap <<= 1; c++; }
  return c < CLUA_ARENA_CLASSES ? c : -1;
}

static inline size_t clua_arena_class_bytes(int c) {
  return c < CLUA_ARENA_SMALL ? (size_t)(c + 1) << 4 : (size_t)2048 << (c - CLUA_ARENA_SMALL);
}

/// Reserves `size` bytes of address space (pages are only backed once touched); NULL on failure.
static inline char *clua_arena_create(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return NULL;
  clua_arena_header *h = (clua_arena_header *)p;
  h->size = size;
  h->top = (sizeof(clua_arena_header) + 15) & ~(size_t)15;
  return (char *)p;
}

/// Empties the arena for a new state (the last one's blocks, freed when it closed or left as
/// they were when it was dropped, are forgotten with the free lists).
static inline void clua_arena_reset(char *arena) {
  clua_arena_header *h = (clua_arena_header *)arena;
  size_t size = h->size;
  memset(h, 0, sizeof(clua_arena_header));
  h->size = size;
  h->top = (sizeof(clua_arena_header) + 15) & ~(size_t)15;
}

/// Gives the pages from `from` to `to` back to the system (they read as zeros when used again).
static inline void clua_arena_release(char *arena, size_t from, size_t to) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  from = (from + page - 1) & ~(page - 1);
  if (to > from) madvise(arena + from, to - from, MADV_DONTNEED);
}

static inline void clua_arena_destroy(char *arena) {
  munmap(arena, ((clua_arena_header *)arena)->size);
}

/// The bytes a checkpoint of the arena copies (the header and every block handed out so far).
static inline size_t clua_arena_used(const char *arena) { return ((const clua_arena_header *)arena)->top; }
/// The blocks from malloc still allocated (a checkpoint needs none).
static inline size_t clua_arena_outside(const char *arena) { return ((const clua_arena_header *)arena)->outside_live; }

static inline void *clua_arena_alloc(char *arena, size_t n) {
  clua_arena_header *h = (clua_arena_header *)arena;
  int c = clua_arena_class(n);
  if (c >= 0) {
    void *p = h->free_lists[c];
    if (p) { h->free_lists[c] = *(void **)p; return p; }
    size_t bytes = clua_arena_class_bytes(c);
    if (bytes <= h->size - h->top) { p = arena + h->top; h->top += bytes; return p; }
  }
  void *p = malloc(n);
  if (p) h->outside_live++;
  return p;
}

static inline void clua_arena_free(char *arena, void *p, size_t n) {
  clua_arena_header *h = (clua_arena_header *)arena;
  if ((char *)p < arena || (char *)p >= arena + h->size) { free(p); h->outside_live--; return; }
  int c = clua_arena_class(n);
  *(void **)p = h->free_lists[c];
  h->free_lists[c] = p;
}

/// `realloc` in the arena: the block stays where it is when its class does not change.
static inline void *clua_arena_realloc(char *arena, void *p, size_t old, size_t n) {
  if (p == NULL) return clua_arena_alloc(arena, n);
  int inside = (char *)p >= arena && (char *)p < arena + ((clua_arena_header *)arena)->size;
  if (inside && clua_arena_class(old) == clua_arena_class(n) && clua_arena_class(n) >= 0) return p;
  void *q = clua_arena_alloc(arena, n);
  if (q == NULL) return NULL;
  memcpy(q, p, old < n ? old : n);
  clua_arena_free(arena, p, old);
  return q;
}

/// Why it is C: read by the count hook, which must not call Swift. `CLOCK_MONOTONIC` in ns.
static inline long long clua_monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/// Why it is C: `lua_Alloc` is called from inside Lua with only C frames
/// around it; refusing here makes Lua raise `LUA_ERRMEM` without Swift.
static inline void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  clua_limits *lim = (clua_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (lim->arena && ptr) clua_arena_free(lim->arena, ptr, old); else free(ptr);
    lim->bytes_in_use -= old;
    return NULL;
  }
  if (lim->bytes_limit != 0 && nsize > old && lim->host_active == 0 && lim->enforcing &&
      lim->bytes_in_use - old + nsize > lim->bytes_limit) {
    lim->memory_exceeded = 1;
    return NULL;
  }
  void *p = lim->arena ? clua_arena_realloc(lim->arena, ptr, old, nsize) : realloc(ptr, nsize);
  if (p) lim->bytes_in_use = lim->bytes_in_use - old + nsize;
  return p;
}

/// Creates a state whose allocator enforces `lim` and stores `lim` in the extra space.
static inline lua_State *clua_newstate(clua_limits *lim) {
  lua_State *L = lua_newstate(clua_alloc, lim);
  if (L) *(clua_limits **)lua_getextraspace(L) = lim;
  return L;
}

/// Replaces the macro `lua_getextraspace`: the limits of the state `L` (or of its main thread).
static inline clua_limits *clua_limits_of(lua_State *L) {
  return *(clua_limits **)lua_getextraspace(L);
}

/// Why it is C: raising from a hook longjmps, and only C frames may be crossed.
/// The error message is fixed; the host classifies by `instructions_exceeded`.
static inline void clua_count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  clua_limits *lim = clua_limits_of(L);
  if (lim->aborted) {
    lua_pushliteral(L, "lifesim: process ended");
    lua_error(L);
  }
  if (!lim->enforcing) return;
  /* The wall-clock guard: a last resort against a host call that runs for minutes. Its time
     starts at the hook's first look, so that a call too short to reach it reads no clock. */
  if (lim->wall_limit_ns != 0) {
    long long now = clua_monotonic_ns();
    if (lim->wall_deadline_ns == 0) {
      lim->wall_deadline_ns = now + lim->wall_limit_ns;
    } else if (now > lim->wall_deadline_ns) {
      lim->wall_exceeded = 1;
      luaL_where(L, 0);
      lua_pushliteral(L, " lifesim: wall-clock limit exceeded");
      lua_concat(L, 2);
      lua_error(L);
    }
  }
  lim->instructions_left -= lim->instructions_step;
  if (lim->instructions_left <= 0) {
    lim->instructions_exceeded = 1;
    luaL_where(L, 0);  /* "file:line:" of the code that ran out */
    lua_pushliteral(L, " lifesim: instruction limit exceeded");
    lua_concat(L, 2);
    lua_error(L);
  }
}

/// Installs the count hook on `L` (hooks are per coroutine).
static inline void clua_install_hook(lua_State *L) {
  lua_sethook(L, clua_count_hook, LUA_MASKCOUNT, (int)clua_limits_of(L)->instructions_step);
}

/// Why it is C: sandboxed `pcall` wrappers call this after the protected call;
/// once a limit is exceeded it re-raises, so a script cannot swallow the stop.
static inline int clua_reraise_if_exceeded(lua_State *L) {
  clua_limits *lim = clua_limits_of(L);
  if (lim->aborted || (lim->enforcing && (lim->instructions_exceeded || lim->memory_exceeded))) {
    lua_pushliteral(L, "lifesim: limit exceeded");
    return lua_error(L);
  }
  return 0;
}

/// `coroutine.create` replacement: the new coroutine gets the count hook too.
static inline int clua_coroutine_create(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  clua_install_hook(co);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

// MARK: - Calling Swift from Lua without longjmp through Swift

/// The Swift side of a host function: returns the number of results, or -1
/// after pushing an error message, which the trampoline then raises.
typedef int (*clua_host_fn)(lua_State *L);

/// Why it is C: `lua_error` must be called with only C frames on the stack.
/// Upvalue 1 is a light userdata holding a `clua_host_fn`; the Swift function
/// finds its closure in upvalue 2.
static inline int clua_trampoline(lua_State *L) {
  clua_host_fn fn = (clua_host_fn)lua_touserdata(L, lua_upvalueindex(1));
  clua_limits *lim = clua_limits_of(L);
  lim->host_active++;
  int n = fn(L);
  lim->host_active--;
  if (n < 0) return lua_error(L);
  return n;
}

/// Pushes `clua_trampoline` as a closure over `fn` and the value on top of the stack.
static inline void clua_push_host_function(lua_State *L, clua_host_fn fn) {
  lua_pushlightuserdata(L, (void *)fn);
  clua_insert(L, -2);
  lua_pushcclosure(L, clua_trampoline, 2);
}

/// Message handler for `lua_pcall`: the message plus `luaL_traceback`.
/// Non-string error objects are described by type, never by address.
static inline int clua_message_handler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    int t = lua_type(L, 1);
    if (t == LUA_TNIL) msg = "error object is nil";
    else if (t == LUA_TBOOLEAN) msg = lua_toboolean(L, 1) ? "error object is true" : "error object is false";
    else if (t == LUA_TTABLE) msg = "error object is a table";
    else msg = lua_pushfstring(L, "error object is a %s", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/// Pushes the message handler (the macro `lua_pushcfunction` replaced).
static inline void clua_push_message_handler(lua_State *L) { lua_pushcclosure(L, clua_message_handler, 0); }
/// Pushes the coroutine.create replacement.
static inline void clua_push_coroutine_create(lua_State *L) { lua_pushcclosure(L, clua_coroutine_create, 0); }
/// Pushes the limit re-raiser used by the sandboxed pcall/xpcall.
static inline void clua_push_reraise(lua_State *L) { lua_pushcclosure(L, clua_reraise_if_exceeded, 0); }

/// Bytes `clua_dump_top` writes (free `data` with `free`).
typedef struct { char *data; size_t length; size_t capacity; int failed; } clua_bytes;

static inline int clua_dump_writer(lua_State *L, const void *p, size_t n, void *ud) {
  (void)L;
  clua_bytes *b = (clua_bytes *)ud;
  if (b->length + n > b->capacity) {
    size_t capacity = (b->length + n) * 2;
    char *grown = (char *)realloc(b->data, capacity);
    if (grown == NULL) { b->failed = 1; return 1; }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->length, p, n);
  b->length += n;
  return 0;
}

/// The bytecode of the function on top of the stack, debug information kept (it stays there):
/// for the host's own trusted chunks, compiled once and loaded with `clua_load_host_bytecode`.
static inline int clua_dump_top(lua_State *L, clua_bytes *out) {
  return lua_dump(L, clua_dump_writer, out, 0) == 0 && !out->failed;
}

/// Loads bytecode made by `clua_dump_top` from the host's own chunks; never a script's text.
static inline int clua_load_host_bytecode(lua_State *L, const char *s, size_t n, const char *chunkname) {
  return luaL_loadbufferx(L, s, n, chunkname, "b");
}

// MARK: - Library functions whose work is charged to the CPU budget

/// Units of work a library call will do, computed from its arguments; must never raise.
/// `length` is `luaL_len` of argument 1 when the function asks for it (a table), else 0.
typedef double (*clua_cost_fn)(lua_State *L, lua_Integer length);

/// Why it is C: the original library function must run as the called function itself, so
/// its errors name the script's line (`luaL_where(L, 1)`) and the function (`luaL_argerror`)
/// exactly as in stock Lua, and the limit error must be raised with only C frames on the stack.
/// Upvalues: 1 the original C function, 2 the cost function (light userdata), 3 when the cost
/// needs the length of a table argument 1 (`luaL_len`, which may run `__len`): 0 never, k > 0
/// when argument k is absent or nil (it defaults to the length), -k when argument k is given.
static inline int clua_metered(lua_State *L) {
  lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
  clua_limits *lim = clua_limits_of(L);
  if (lim->enforcing) {
    clua_cost_fn cost = (clua_cost_fn)lua_touserdata(L, lua_upvalueindex(2));
    lua_Integer length = 0;
    int when = (int)lua_tointegerx(L, lua_upvalueindex(3), NULL);
    int absent = when != 0 && lua_type(L, when > 0 ? when : -when) <= LUA_TNIL;
    if (when != 0 && (when > 0) == absent && lua_type(L, 1) == LUA_TTABLE) length = luaL_len(L, 1);
    lim->host_active++;
    double units = cost(L, length);
    lim->host_active--;
    if (units >= 1) {
      long spend = units < 4e18 ? (long)units : (long)4e18;
      if (spend >= lim->instructions_left) {
        lim->instructions_left = 0;
        lim->instructions_exceeded = 1;
        luaL_where(L, 1);
        lua_pushliteral(L, "lifesim: instruction limit exceeded");
        lua_concat(L, 2);
        return lua_error(L);
      }
      lim->instructions_left -= spend;
    }
  }
  return original(L);
}

/// Replaces the C function on top of the stack by its metered closure.
static inline void clua_push_metered(lua_State *L, clua_cost_fn cost, int length_when) {
  lua_pushlightuserdata(L, (void *)cost);
  lua_pushinteger(L, length_when);
  lua_pushcclosure(L, clua_metered, 3);
}

/// Replaces `luaL_loadbufferx(L, s, n, name, "t")`: text chunks only, never bytecode.
static inline int clua_load_text(lua_State *L, const char *s, size_t n, const char *chunkname) {
  return luaL_loadbufferx(L, s, n, chunkname, "t");
}

#endif
