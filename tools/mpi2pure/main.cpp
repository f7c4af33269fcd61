// mpi2pure: translates MPI C and C++ sources, and the project headers they
// include, into Pure sources in an output tree that mirrors the input.
//
//   mpi2pure [options] SOURCE... [-- COMPILER-FLAGS...]
//
// See usage() for the options. Exit status: 0 translated; 1 translation
// errors (unsupported MPI calls, spellings that cannot be rewritten safely),
// nothing written; 2 bad usage or a source that does not parse.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "translate.h"

namespace {

using mpi2pure::Session;

void usage(llvm::raw_ostream& os) {
  os << R"(usage: mpi2pure [options] SOURCE... [-- COMPILER-FLAGS...]

Translates MPI C and C++ sources, and the project headers they include, into
Pure sources: MPI names become Pure's, <mpi.h> becomes <pure/pure.h>, main
becomes pure_main, every use of a mutable global becomes the rank's own
(PURE_RANK), and the C library's process-wide state (exit, atexit, rand,
drand48, getopt, getenv, chdir, stdout, ...) gets per-rank forms
(<pure/compat.h>).

  -o DIR                 write the translated tree under DIR (required)
  --root DIR             mirror paths relative to DIR (default: the deepest
                         directory holding every translated file; `/` mirrors
                         absolute paths)
  --line-directives      start each file with #line, so that compiler
                         messages name the original file and line
  --allow-unsupported    report unsupported MPI names as warnings and leave
                         them as they are, instead of failing
  --strict               report calls whose state is the process's by nature
                         (umask, signal, fork, system, ...) as errors
  --library-prefix DIR   never rewrite headers under DIR (repeatable; /usr/
                         always counts)
  --mpi-include DIR      the MPI headers to parse against (default: $MPI2PURE_MPI_INCLUDE
                         or )" MPI2PURE_MPI_INCLUDE R"()
  --resource-dir DIR     clang's builtin headers (default: $MPI2PURE_RESOURCE_DIR
                         or )" MPI2PURE_RESOURCE_DIR R"()
  -h, --help             this help
  --version              the version

COMPILER-FLAGS are the -I, -D, -U, -std, -include and -x flags the sources
are compiled with. Files under /usr/ and system include directories are never
rewritten. Exit status: 0 translated, 1 translation errors (nothing
written), 2 bad usage or a source that does not parse.
)";
}

[[noreturn]] void die(const std::string& message) {
  llvm::errs() << "mpi2pure: error: " << message << "\nmpi2pure: try 'mpi2pure --help'\n";
  std::exit(2);
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string absolute(llvm::StringRef path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p);
}

// The deepest directory that holds every file.
std::string common_root(const std::set<std::string>& files) {
  std::string root;
  for (const std::string& f : files) {
    std::string dir = std::string(llvm::sys::path::parent_path(f));
    if (root.empty()) {
      root = dir;
      continue;
    }
    while (!(dir == root || llvm::StringRef(dir).startswith(root + "/")) && root != "/")
      root = std::string(llvm::sys::path::parent_path(root));
  }
  return root.empty() ? "/" : root;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// #line "name" with the string escaped as C requires.
std::string line_directive(const std::string& path) {
  std::string quoted;
  for (char c : path) {
    if (c == '\\' || c == '"') quoted += '\\';
    quoted += c;
  }
  return "#line 1 \"" + quoted + "\"\n";
}

int write_tree(Session& s, const std::string& out_dir, std::string root, bool line_directives) {
  if (root.empty()) root = common_root(s.files);
  for (const std::string& file : s.files) {
    llvm::StringRef rel(file);
    if (root != "/" && !rel.consume_front(root + "/")) {
      llvm::errs() << "mpi2pure: error: " << file << " is outside --root " << root << "\n";
      return 1;
    }
    rel = rel.ltrim('/');
    std::string original;
    if (!read_file(file, original)) {
      llvm::errs() << "mpi2pure: error: cannot read " << file << "\n";
      return 1;
    }
    std::string text = s.edits.apply(file, original);
    // A translated file carries its #line already: translating it again
    // changes nothing.
    bool has_line = llvm::StringRef(text).startswith("#line ") ||
                    llvm::StringRef(text).startswith("#include <pure/compat.h>\n#line ");
    std::string head;
    if (s.needs_compat.count(file) && !s.has_compat.count(file)) head += "#include <pure/compat.h>\n";
    if (line_directives && !has_line) head += line_directive(file);
    llvm::SmallString<256> out_path(out_dir);
    llvm::sys::path::append(out_path, rel);
    if (std::error_code ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(out_path))) {
      llvm::errs() << "mpi2pure: error: cannot create the directory of " << out_path << ": "
                   << ec.message() << "\n";
      return 1;
    }
    std::error_code ec;
    llvm::raw_fd_ostream os(out_path, ec);
    if (ec) {
      llvm::errs() << "mpi2pure: error: cannot write " << out_path << ": " << ec.message() << "\n";
      return 1;
    }
    os << head << text;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Session session;
  std::vector<std::string> sources, flags;
  std::string out_dir, root;
  bool line_directives = false;
  std::string mpi_include = env_or("MPI2PURE_MPI_INCLUDE", MPI2PURE_MPI_INCLUDE);
  std::string resource_dir = env_or("MPI2PURE_RESOURCE_DIR", MPI2PURE_RESOURCE_DIR);

  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* opt) -> std::string {
      if (i + 1 >= argc) die(std::string(opt) + " needs a value");
      return argv[++i];
    };
    if (a == "--") {
      flags.assign(argv + i + 1, argv + argc);
      break;
    } else if (a == "-h" || a == "--help") {
      usage(llvm::outs());
      return 0;
    } else if (a == "--version") {
      llvm::outs() << "mpi2pure " MPI2PURE_VERSION "\n";
      return 0;
    } else if (a == "-o") {
      out_dir = value("-o");
    } else if (a == "--root") {
      root = absolute(value("--root"));
    } else if (a == "--line-directives") {
      line_directives = true;
    } else if (a == "--allow-unsupported") {
      session.options.allow_unsupported = true;
    } else if (a == "--strict") {
      session.options.strict = true;
    } else if (a == "--library-prefix") {
      std::string p = absolute(value("--library-prefix"));
      session.options.library_prefixes.push_back(p == "/" ? p : p + "/");
    } else if (a == "--mpi-include") {
      mpi_include = value("--mpi-include");
    } else if (a == "--resource-dir") {
      resource_dir = value("--resource-dir");
    } else if (!a.empty() && a[0] == '-') {
      die("unknown option '" + a + "'");
    } else {
      sources.push_back(a);
    }
  }
  if (sources.empty()) die("no source files given");
  if (out_dir.empty()) die("no output directory given (-o DIR)");
  for (const std::string& src : sources)
    if (!llvm::sys::fs::is_regular_file(src)) die("no such source file '" + src + "'");
  if (!llvm::sys::fs::exists(mpi_include + "/mpi.h"))
    die("no mpi.h in '" + mpi_include + "' (set --mpi-include or MPI2PURE_MPI_INCLUDE)");

  // Open MPI's header as a system header, so that it is never rewritten and
  // its own MPI names are not the user's; its C++ bindings stay out. In
  // front of it, Pure's wrapper (mpi_wrapper.h), which includes it and then
  // declares what Pure supports and the header lacks.
  static const char kWrapperDir[] = "/pure-mpi2pure/include";
  session.options.library_prefixes.push_back("/pure-mpi2pure/");
  std::vector<std::string> args = {"-isystem", kWrapperDir, "-isystem", mpi_include,
                                   "-resource-dir", resource_dir,
                                   "-DOMPI_SKIP_MPICXX=1", "-DMPICH_SKIP_MPICXX=1",
                                   "-Wno-everything", "-ferror-limit=20"};
  args.insert(args.end(), flags.begin(), flags.end());
  clang::tooling::FixedCompilationDatabase db(".", args);
  // The wrapper lives in a file system of its own over the real one. (Not
  // ClangTool::mapVirtualFile: its files are not there when the header
  // search list is built, which then drops the wrapper's directory as
  // nonexistent and parses against the MPI header alone.)
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> wrapper(
      new llvm::vfs::InMemoryFileSystem);
  wrapper->addFile(std::string(kWrapperDir) + "/mpi.h", 0,
                   llvm::MemoryBuffer::getMemBuffer(
#include "mpi_wrapper.inc"
                       ));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> files(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  files->pushOverlay(wrapper);
  clang::tooling::ClangTool tool(db, sources,
                                 std::make_shared<clang::PCHContainerOperations>(), files);
  auto factory = mpi2pure::make_action_factory(session);
  const int parsed = tool.run(factory.get());
  session.report.flush();
  if (parsed != 0) {
    llvm::errs() << "mpi2pure: error: could not parse the sources; nothing written\n";
    return 2;
  }
  if (session.report.errors() > 0) {
    llvm::errs() << "mpi2pure: " << session.report.errors()
                 << " error(s); nothing written (--allow-unsupported turns unsupported MPI "
                    "names into warnings)\n";
    return 1;
  }
  return write_tree(session, out_dir, root, line_directives);
}
