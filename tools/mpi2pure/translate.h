// One translation run: the state shared by every translation unit (Session)
// and the per-unit context (TuContext) through which the preprocessor hooks
// (preprocessor.cpp) and the AST matchers (ast_rewrites.cpp) record edits.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Tooling/Tooling.h"
#include "edits.h"
#include "report.h"

namespace mpi2pure {

struct Options {
  // Unsupported MPI names are warnings and stay as they are.
  bool allow_unsupported = false;
  // Calls whose state is the process's by nature (umask, signal, fork, ...)
  // are errors, not warnings.
  bool strict = false;
  // Files under these prefixes are never rewritten, even when included as
  // user headers (-I/usr/include/hdf5 ...): they belong to libraries.
  std::vector<std::string> library_prefixes{"/usr/"};
};

struct Session {
  Options options;
  EditSet edits;
  Reporter report;
  std::set<std::string> files;         // project files reached: the output tree
  std::set<std::string> needs_compat;  // files that now call pure/compat.h functions
  std::set<std::string> has_compat;    // files that include pure/compat.h already
};

// Where a file location lies.
enum class Place {
  project,  // the user's source or header: rewritten
  library,  // a system or library header (Open MPI's mpi.h, libc): left alone
  nowhere,  // no file: token pasting, a command-line macro, a builtin
};

class TuContext {
 public:
  TuContext(Session& session, clang::CompilerInstance& ci);

  Session& session;
  clang::SourceManager& sm;
  clang::Preprocessor& pp;
  const clang::LangOptions& lang;

  bool cplusplus() const { return lang.CPlusPlus; }
  // Place of the file that `loc` (a file location) lies in.
  Place place(clang::SourceLocation loc);
  // Absolute, normalised path of the file that `loc` (a file location) lies in.
  std::string path(clang::SourceLocation loc);
  // "file:line:col" of `loc`, as the user's compiler would print it.
  std::string where(clang::SourceLocation loc) const;

  // A use of MPI entity `name` (a function, type or constant of <mpi.h>)
  // whose token is at `loc`: rename it, or report it as unsupported.
  void mpi_reference(clang::SourceLocation loc, llvm::StringRef name);
  // An identifier that looks like an MPI name in the body of one of the
  // user's macros; resolved at the end of the unit, once every declaration
  // it could name has been seen.
  void macro_body_name(clang::SourceLocation loc, llvm::StringRef name);

  // Edits at file locations (in project files). They report a conflict
  // themselves and return false on it.
  bool replace(clang::SourceLocation file_loc, unsigned length, const std::string& text);
  bool insert(clang::SourceLocation file_loc, const std::string& text);
  // Replaces the tokens of `range` where they are spelled, if they are all
  // spelled together in one project file; otherwise reports `what` as not
  // rewritable and returns false.
  bool replace_range(clang::SourceRange range, const std::string& text, const std::string& what);

  void record_file(clang::SourceLocation file_loc);
  // The include of <mpi.h> that became one of <pure/pure.h> (the unit's
  // first from a project file): `length` bytes at `name_loc`.
  void mpi_include(clang::SourceLocation name_loc, unsigned length);
  // An include of <pure/mpi.h> from a project file: a translation already
  // made for pasted names (translated again, nothing changes).
  void pure_mpi_include() { pure_mpi_included_ = true; }
  // Ends the unit: resolves the deferred macro-body names, and makes the
  // include of <mpi.h> one of <pure/mpi.h> if the unit spells an MPI name
  // only through token pasting.
  void finish(clang::ASTContext& ast);

 private:
  struct FileInfo {
    Place place = Place::nowhere;
    std::string path;
  };
  const FileInfo& info(clang::SourceLocation loc);
  bool is_mpi_entity(clang::ASTContext& ast, llvm::StringRef name);

  std::map<clang::FileID, FileInfo> files_;
  std::vector<std::pair<clang::SourceLocation, std::string>> macro_names_;
  // The unit's rewritten include of <mpi.h> (valid once seen).
  clang::SourceLocation mpi_include_;
  unsigned mpi_include_length_ = 0;
  bool pure_mpi_included_ = false;
  // Pasted names Pure has, with where they were expanded; an error if the
  // unit has no include of <mpi.h> to make their definitions visible.
  std::vector<std::pair<clang::SourceLocation, std::string>> pasted_names_;
};

std::unique_ptr<clang::PPCallbacks> make_preprocessor_hooks(TuContext& tu);

// Registers every AST rewrite on `finder`; the callbacks live in `keep`.
void add_ast_rewrites(clang::ast_matchers::MatchFinder& finder, TuContext& tu,
                      std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>>& keep);

// The rewrites that give each rank its own globals (rank_globals.cpp).
void add_rank_global_rewrites(
    clang::ast_matchers::MatchFinder& finder, TuContext& tu,
    std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>>& keep);

std::unique_ptr<clang::tooling::FrontendActionFactory> make_action_factory(Session& session);

}  // namespace mpi2pure
