#include "translate.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "names.h"

namespace mpi2pure {

using clang::SourceLocation;

TuContext::TuContext(Session& s, clang::CompilerInstance& ci)
    : session(s), sm(ci.getSourceManager()), pp(ci.getPreprocessor()), lang(ci.getLangOpts()) {}

const TuContext::FileInfo& TuContext::info(SourceLocation loc) {
  clang::FileID fid = sm.getFileID(loc);
  auto it = files_.find(fid);
  if (it != files_.end()) return it->second;
  FileInfo fi;
  if (const clang::FileEntry* fe = sm.getFileEntryForID(fid)) {
    llvm::SmallString<256> p(fe->getName());
    llvm::sys::fs::make_absolute(p);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    fi.path = std::string(p);
    fi.place = sm.isInSystemHeader(loc) ? Place::library : Place::project;
    for (const std::string& prefix : session.options.library_prefixes)
      if (llvm::StringRef(fi.path).startswith(prefix)) fi.place = Place::library;
  }
  return files_.emplace(fid, std::move(fi)).first->second;
}

Place TuContext::place(SourceLocation loc) {
  if (loc.isInvalid()) return Place::nowhere;
  return info(sm.getFileLoc(loc)).place;
}

std::string TuContext::path(SourceLocation loc) { return info(sm.getFileLoc(loc)).path; }

std::string TuContext::where(SourceLocation loc) const {
  clang::PresumedLoc p = sm.getPresumedLoc(loc);
  if (p.isInvalid()) return "<unknown>";
  return std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
         std::to_string(p.getColumn());
}

void TuContext::record_file(SourceLocation loc) {
  if (place(loc) == Place::project) session.files.insert(path(loc));
}

bool TuContext::replace(SourceLocation loc, unsigned length, const std::string& text) {
  Edit e{sm.getFileOffset(loc), length, text};
  if (session.edits.add(path(loc), e)) return true;
  session.report.error(where(loc),
                       "conflicting rewrites of this spot from different translation units "
                       "(a header included from both C and C++ sources?)");
  return false;
}

bool TuContext::insert(SourceLocation loc, const std::string& text) { return replace(loc, 0, text); }

bool TuContext::replace_range(clang::SourceRange range, const std::string& text,
                              const std::string& what) {
  SourceLocation b = sm.getSpellingLoc(range.getBegin());
  SourceLocation e = sm.getSpellingLoc(range.getEnd());
  if (place(b) == Place::project && sm.getFileID(b) == sm.getFileID(e) &&
      sm.getFileOffset(b) <= sm.getFileOffset(e)) {
    unsigned end = sm.getFileOffset(e) + clang::Lexer::MeasureTokenLength(e, sm, lang);
    return replace(b, end - sm.getFileOffset(b), text);
  }
  session.report.error(where(sm.getExpansionLoc(range.getBegin())),
                       "cannot rewrite " + what + " here safely: it is not spelled out in the "
                       "source (token pasting or a command-line macro); rewrite it by hand");
  return false;
}

void TuContext::mpi_reference(SourceLocation loc, llvm::StringRef name) {
  SourceLocation spelled = sm.getSpellingLoc(loc);
  switch (place(spelled)) {
    case Place::library:
      return;  // inside <mpi.h> or another library's own macros
    case Place::nowhere:
      // Made by token pasting (MPI_##name): no spelling to rename, but the
      // compiler sees the whole name, which <pure/mpi.h> maps (finish).
      if (place(sm.getExpansionLoc(loc)) == Place::project && pure_name(name)) {
        pasted_names_.emplace_back(sm.getExpansionLoc(loc), name.str());
        return;
      }
      if (place(sm.getExpansionLoc(loc)) == Place::project && unsupported_reason(name)) {
        session.report.error(where(sm.getExpansionLoc(loc)),
                             name.str() + " is not supported by Pure (" +
                                 unsupported_reason(name)->str() + ")");
        return;
      }
      if (place(sm.getExpansionLoc(loc)) == Place::project)
        session.report.error(where(sm.getExpansionLoc(loc)),
                             "cannot rewrite " + name.str() +
                                 " here safely: it is not spelled out in the source (token "
                                 "pasting or a command-line macro); rewrite it by hand");
      return;
    case Place::project:
      break;
  }
  // The token must be the name itself, not a longer identifier that a
  // pasted or stringized spelling happens to start with.
  const char* text = sm.getCharacterData(spelled);
  if (clang::Lexer::MeasureTokenLength(spelled, sm, lang) != name.size() ||
      llvm::StringRef(text, name.size()) != name) {
    session.report.error(where(spelled), "cannot rewrite " + name.str() + " here safely");
    return;
  }
  if (auto to = pure_name(name)) {
    replace(spelled, static_cast<unsigned>(name.size()), to->str());
    return;
  }
  std::string why = name.str() + " is not supported by Pure";
  if (auto reason = unsupported_reason(name)) why += " (" + reason->str() + ")";
  if (session.options.allow_unsupported) {
    session.report.warning(where(spelled), why + "; left unchanged");
  } else {
    session.report.error(where(spelled), why);
  }
}

void TuContext::macro_body_name(SourceLocation loc, llvm::StringRef name) {
  macro_names_.emplace_back(loc, name.str());
}

// True when `name` is declared or defined by a library header (that is,
// <mpi.h>), or is a name Pure maps: then a user macro that mentions it means
// the MPI entity. A user's own MPI_CHECK macro or MPI_-prefixed function is
// neither, and stays. A name nothing declares is MPI's when it is one Pure
// knows not to support (the MPI library's header may lack it: MPI-4 names
// against Open MPI 4's), and the program's own otherwise.
bool TuContext::is_mpi_entity(clang::ASTContext& ast, llvm::StringRef name) {
  if (pure_name(name)) return true;
  clang::IdentifierInfo* ii = pp.getIdentifierInfo(name);
  if (const clang::MacroInfo* mi = pp.getMacroDefinition(ii).getMacroInfo())
    return place(mi->getDefinitionLoc()) == Place::library;
  bool declared = false;
  for (const clang::NamedDecl* d : ast.getTranslationUnitDecl()->lookup(ii)) {
    if (place(d->getLocation()) == Place::library) return true;
    declared = true;
  }
  return !declared && unsupported_reason(name).has_value();
}

void TuContext::mpi_include(SourceLocation name_loc, unsigned length) {
  if (mpi_include_.isInvalid()) {
    mpi_include_ = name_loc;
    mpi_include_length_ = length;
  }
  replace(name_loc, length, "<pure/pure.h>");
}

void TuContext::finish(clang::ASTContext& ast) {
  for (const auto& [loc, name] : macro_names_)
    if (is_mpi_entity(ast, name)) mpi_reference(loc, name);
  macro_names_.clear();
  if (pasted_names_.empty()) return;
  // <pure/mpi.h> defines every MPI name Pure has as a macro of its flat-API
  // name, and a pasted token is rescanned for macros: the pasted name
  // becomes the Pure call where it is made.
  if (pure_mpi_included_) {
    pasted_names_.clear();
    return;
  }
  if (mpi_include_.isValid() &&
      session.edits.change(path(mpi_include_), Edit{sm.getFileOffset(mpi_include_),
                                                    mpi_include_length_, "<pure/mpi.h>"})) {
    pasted_names_.clear();
    return;
  }
  for (const auto& [loc, name] : pasted_names_)
    session.report.error(where(loc), "cannot rewrite " + name +
                                         " here safely: it is made by token pasting and this "
                                         "file includes no <mpi.h> to map it; rewrite it by hand");
  pasted_names_.clear();
}

namespace {

class TranslateAction : public clang::ASTFrontendAction {
 public:
  explicit TranslateAction(Session& session) : session_(session) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    tu_ = std::make_unique<TuContext>(session_, ci);
    tu_->record_file(ci.getSourceManager().getLocForStartOfFile(
        ci.getSourceManager().getMainFileID()));
    ci.getPreprocessor().addPPCallbacks(make_preprocessor_hooks(*tu_));
    finder_ = std::make_unique<clang::ast_matchers::MatchFinder>();
    add_ast_rewrites(*finder_, *tu_, callbacks_);
    return finder_->newASTConsumer();
  }

  void EndSourceFileAction() override {
    if (tu_ && getCompilerInstance().hasASTContext())
      tu_->finish(getCompilerInstance().getASTContext());
  }

 private:
  Session& session_;
  std::unique_ptr<TuContext> tu_;
  std::unique_ptr<clang::ast_matchers::MatchFinder> finder_;
  std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>> callbacks_;
};

class Factory : public clang::tooling::FrontendActionFactory {
 public:
  explicit Factory(Session& session) : session_(session) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<TranslateAction>(session_);
  }

 private:
  Session& session_;
};

}  // namespace

std::unique_ptr<clang::tooling::FrontendActionFactory> make_action_factory(Session& session) {
  return std::make_unique<Factory>(session);
}

}  // namespace mpi2pure
