// The rewrites that need the AST: references to MPI functions, types and
// enumerators; main; C library calls with process-wide meaning; and objects
// with static storage, which become thread-local because ranks now share
// one address space.
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "names.h"
#include "translate.h"

namespace mpi2pure {
namespace {

using namespace clang::ast_matchers;
using clang::SourceLocation;

// MPI_Send(...), &MPI_Send, MPI_THREAD_MULTIPLE (an enumerator in Open MPI),
// MPI_Comm / MPI_Status / ... wherever a type is written.
class MpiReferences : public MatchFinder::MatchCallback {
 public:
  explicit MpiReferences(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    if (const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("ref")) {
      const clang::NamedDecl* d = ref->getDecl();
      // A call of an MPI function the parse header does not declare is an
      // implicit declaration (C): MPI's, since MPI reserves the prefix.
      if (tu_.place(d->getLocation()) == Place::library || d->isImplicit())
        tu_.mpi_reference(ref->getLocation(), d->getName());
    } else if (const auto* tl = r.Nodes.getNodeAs<clang::TypeLoc>("type")) {
      // `const MPI_Status *` matches as the qualified type; the name is in
      // its unqualified part.
      auto typedef_loc = tl->getUnqualifiedLoc().getAs<clang::TypedefTypeLoc>();
      if (!typedef_loc) return;
      const clang::TypedefNameDecl* d = typedef_loc.getTypedefNameDecl();
      if (tu_.place(d->getLocation()) == Place::library)
        tu_.mpi_reference(typedef_loc.getNameLoc(), d->getName());
    }
  }

 private:
  TuContext& tu_;
};

// main becomes pure_main, which Pure::main runs on every rank thread. Its
// C signature must match pure.h's `int pure_main(int, char**)`, and unlike
// main it has no implicit `return 0`.
class MainFunction : public MatchFinder::MatchCallback {
 public:
  explicit MainFunction(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* fd = r.Nodes.getNodeAs<clang::FunctionDecl>("main");
    SourceLocation name = fd->getLocation();
    if (tu_.place(name) != Place::project) return;
    if (name.isMacroID()) {
      tu_.session.report.error(tu_.where(tu_.sm.getExpansionLoc(name)),
                               "cannot rename main to pure_main here: it is declared by a macro");
      return;
    }
    tu_.replace(name, 4, "pure_main");
    if (tu_.cplusplus() && !fd->isExternC()) {
      SourceLocation start = fd->getInnerLocStart();
      if (start.isFileID()) tu_.insert(start, "extern \"C\" ");
    }
    if (fd->getNumParams() == 0) parameters(fd);
    if (fd->doesThisDeclarationHaveABody()) final_return(fd);
  }

 private:
  // main() and main(void) -> pure_main(int, char**), the prototype in
  // pure.h. C needs parameter names in a definition; the body marks them
  // used, on the line of its `{`, so line numbers stay.
  void parameters(const clang::FunctionDecl* fd) {
    clang::FunctionTypeLoc ftl = fd->getFunctionTypeLoc();
    if (!ftl) return;
    SourceLocation l = ftl.getLParenLoc(), rp = ftl.getRParenLoc();
    if (l.isMacroID() || rp.isMacroID()) return;
    SourceLocation inside = l.getLocWithOffset(1);
    unsigned length = tu_.sm.getFileOffset(rp) - tu_.sm.getFileOffset(inside);
    if (tu_.cplusplus()) {
      tu_.replace(inside, length, "int, char**");
      return;
    }
    tu_.replace(inside, length, "int pure_argc, char **pure_argv");
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(
        fd->doesThisDeclarationHaveABody() ? fd->getBody() : nullptr);
    if (body && body->getLBracLoc().isFileID())
      tu_.insert(body->getLBracLoc().getLocWithOffset(1), " (void)pure_argc; (void)pure_argv;");
  }

  void final_return(const clang::FunctionDecl* fd) {
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fd->getBody());
    if (!body || (!body->body_empty() && llvm::isa<clang::ReturnStmt>(body->body_back()))) return;
    SourceLocation close = body->getRBracLoc();
    if (close.isFileID()) tu_.insert(close, "return 0; ");
  }

  TuContext& tu_;
};

// exit, abort, rand, strtok, localtime, ... -> their pure/compat.h forms.
class LibcReplacements : public MatchFinder::MatchCallback {
 public:
  explicit LibcReplacements(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("libc");
    const auto* fd = llvm::cast<clang::FunctionDecl>(ref->getDecl())->getCanonicalDecl();
    // The user's own function stays; an implicit declaration (C, no
    // <stdlib.h>) is still the library's.
    if (!fd->isImplicit() && tu_.place(fd->getLocation()) == Place::project) return;
    SourceLocation spelled = tu_.sm.getSpellingLoc(ref->getBeginLoc());
    if (tu_.place(spelled) != Place::project && tu_.place(tu_.sm.getExpansionLoc(spelled)) !=
                                                    Place::project)
      return;
    auto to = libc_replacement(fd->getName());
    // std::exit -> pure_exit: the qualifier goes with the name.
    if (tu_.replace_range(ref->getSourceRange(), to->str(), fd->getName().str()))
      tu_.session.needs_compat.insert(tu_.path(spelled));
  }

 private:
  TuContext& tu_;
};

// Library calls with process-wide state and no per-rank form: warnings.
class LibcHazards : public MatchFinder::MatchCallback {
 public:
  explicit LibcHazards(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("hazard");
    const auto* fd = llvm::cast<clang::FunctionDecl>(ref->getDecl())->getCanonicalDecl();
    if (!fd->isImplicit() && tu_.place(fd->getLocation()) == Place::project) return;
    SourceLocation at = tu_.sm.getSpellingLoc(ref->getLocation());
    if (tu_.place(at) != Place::project) at = tu_.sm.getExpansionLoc(ref->getLocation());
    if (tu_.place(at) != Place::project) return;
    tu_.session.report.warning(tu_.where(at), fd->getName().str() +
                                                  " is not thread-safe when ranks are threads: " +
                                                  libc_hazard(fd->getName())->str());
  }

 private:
  TuContext& tu_;
};

// Every mutable object with static storage becomes thread-local: globals,
// extern declarations (so all declarations of one object agree, in every
// translation unit, whatever EXTERN expands to), file and function statics,
// static data members. Constant objects stay shared.
class StaticStorage : public MatchFinder::MatchCallback {
 public:
  explicit StaticStorage(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* vd = r.Nodes.getNodeAs<clang::VarDecl>("var");
    if (vd->isImplicit() || llvm::isa<clang::ParmVarDecl>(vd) || !vd->hasGlobalStorage()) return;
    if (vd->getTLSKind() != clang::VarDecl::TLS_None || vd->isConstexpr()) return;
    if (r.Context->getBaseElementType(vd->getType()).isConstQualified()) return;
    if (is_libc_object(vd->getName())) return;
    for (const clang::VarDecl* redecl : vd->redecls())
      if (tu_.place(redecl->getLocation()) != Place::project) return;  // a library's object
    if (tu_.place(tu_.sm.getSpellingLoc(vd->getLocation())) != Place::project &&
        tu_.place(tu_.sm.getExpansionLoc(vd->getLocation())) != Place::project)
      return;
    const std::string name = vd->getQualifiedNameAsString();
    if (llvm::isa<clang::DecompositionDecl>(vd)) {
      error(vd->getLocation(), "cannot make '" + name +
                                   "' thread-local: structured bindings cannot be thread_local "
                                   "in C++17; declare the object by hand");
      return;
    }
    if (!tu_.cplusplus() && vd->hasInit() && !address_free(vd->getInit(), name)) return;

    SourceLocation at = insertion_point(vd);
    if (at.isInvalid()) {
      error(vd->getLocation(), "cannot make '" + name +
                                   "' thread-local: its declaration comes from a macro; add " +
                                   keyword() + "to it by hand");
      return;
    }
    tu_.insert(at, keyword());
  }

 private:
  std::string keyword() const { return tu_.cplusplus() ? "thread_local " : "_Thread_local "; }

  void error(SourceLocation loc, const std::string& message) {
    SourceLocation at = tu_.sm.getSpellingLoc(loc);
    if (tu_.place(at) != Place::project) at = tu_.sm.getExpansionLoc(loc);
    tu_.session.report.error(tu_.where(at), message);
  }

  // The file location where the declaration's tokens starting at `loc`
  // are written; invalid when they are written inside a macro's body.
  SourceLocation written(SourceLocation loc) {
    if (loc.isFileID()) return tu_.place(loc) == Place::project ? loc : SourceLocation();
    if (tu_.sm.isMacroArgExpansion(loc)) {
      SourceLocation spelled = tu_.sm.getSpellingLoc(loc);
      return tu_.place(spelled) == Place::project ? spelled : SourceLocation();
    }
    SourceLocation macro_begin;
    if (clang::Lexer::isAtStartOfMacroExpansion(loc, tu_.sm, tu_.lang, &macro_begin) &&
        macro_begin.isFileID() && tu_.place(macro_begin) == Place::project)
      return macro_begin;
    return SourceLocation();
  }

  // The keyword goes after the storage class and before the type with its
  // qualifiers: `static _Thread_local const char *p;`, `EXTERN
  // _Thread_local int x;`. GCC warns about a storage class after a
  // qualifier, and the spot does not depend on what EXTERN expands to, so
  // every translation unit that includes a header makes the same edit.
  SourceLocation insertion_point(const clang::VarDecl* vd) {
    SourceLocation begin = written(vd->getInnerLocStart());
    SourceLocation type = written(vd->getTypeSpecStartLoc());
    if (begin.isInvalid() || type.isInvalid()) return SourceLocation();
    if (tu_.sm.getFileID(begin) != tu_.sm.getFileID(type) ||
        tu_.sm.getFileOffset(begin) > tu_.sm.getFileOffset(type))
      return type;
    // Qualifiers written before the type: the keyword goes before them.
    clang::FileID fid = tu_.sm.getFileID(begin);
    llvm::StringRef buffer = tu_.sm.getBufferData(fid);
    clang::Lexer lexer(tu_.sm.getLocForStartOfFile(fid), tu_.lang, buffer.begin(),
                       tu_.sm.getCharacterData(begin), buffer.end());
    clang::Token tok;
    while (!lexer.LexFromRawLexer(tok) && tu_.sm.getFileOffset(tok.getLocation()) <
                                              tu_.sm.getFileOffset(type)) {
      if (!tok.is(clang::tok::raw_identifier)) continue;
      llvm::StringRef word = tok.getRawIdentifier();
      if (word == "const" || word == "volatile" || word == "restrict" || word == "__restrict" ||
          word == "_Atomic")
        return tok.getLocation();
    }
    return type;
  }

  // C only allows constant initialisers for static storage, and the address
  // of a thread-local object is not one: `int *p = &x;` cannot become
  // thread-local when x does. (sizeof x is fine.)
  bool address_free(const clang::Stmt* s, const std::string& name) {
    if (!s) return true;
    if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(s)) return true;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
      const auto* target = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (target && target->hasGlobalStorage() &&
          tu_.place(target->getLocation()) == Place::project &&
          !target->getType().isConstQualified()) {
        error(ref->getLocation(), "cannot make '" + name +
                                      "' thread-local: its initializer takes the address of '" +
                                      target->getName().str() +
                                      "', which becomes thread-local too, and C allows that "
                                      "only at run time; assign it in code instead");
        return false;
      }
    }
    for (const clang::Stmt* child : s->children())
      if (!address_free(child, name)) return false;
    return true;
  }

  TuContext& tu_;
};

}  // namespace

void add_ast_rewrites(MatchFinder& finder, TuContext& tu,
                      std::vector<std::unique_ptr<MatchFinder::MatchCallback>>& keep) {
  auto mpi = std::make_unique<MpiReferences>(tu);
  finder.addMatcher(declRefExpr(to(namedDecl(matchesName("^::P?MPI_")))).bind("ref"), mpi.get());
  finder.addMatcher(
      typeLoc(loc(typedefType(hasDeclaration(typedefNameDecl(matchesName("^::P?MPI_"))))))
          .bind("type"),
      mpi.get());
  keep.push_back(std::move(mpi));

  auto main = std::make_unique<MainFunction>(tu);
  finder.addMatcher(functionDecl(isMain()).bind("main"), main.get());
  keep.push_back(std::move(main));

  auto libc = std::make_unique<LibcReplacements>(tu);
  finder.addMatcher(
      declRefExpr(to(functionDecl(matchesName(libc_replacement_regex())))).bind("libc"),
      libc.get());
  keep.push_back(std::move(libc));

  auto hazards = std::make_unique<LibcHazards>(tu);
  finder.addMatcher(
      declRefExpr(to(functionDecl(matchesName(libc_hazard_regex())))).bind("hazard"),
      hazards.get());
  keep.push_back(std::move(hazards));

  auto statics = std::make_unique<StaticStorage>(tu);
  finder.addMatcher(varDecl(hasGlobalStorage()).bind("var"), statics.get());
  keep.push_back(std::move(statics));
}

}  // namespace mpi2pure
