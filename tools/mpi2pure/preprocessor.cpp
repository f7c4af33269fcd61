// The rewrites the preprocessor sees and the AST does not: the include of
// <mpi.h>, MPI constants (macros in Open MPI's header, also in #if lines),
// and MPI names in the bodies of the user's own macros.
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include "names.h"
#include "translate.h"

namespace mpi2pure {
namespace {

using clang::SourceLocation;

class Hooks : public clang::PPCallbacks {
 public:
  explicit Hooks(TuContext& tu) : tu_(tu) {}

  void FileChanged(SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID previous) override {
    if (reason == EnterFile) tu_.record_file(loc);
    if (reason == ExitFile && previous.isValid()) forget_implementation(loc, previous);
  }

  void InclusionDirective(SourceLocation hash, const clang::Token&, llvm::StringRef file_name,
                          bool, clang::CharSourceRange name_range, const clang::FileEntry*,
                          llvm::StringRef, llvm::StringRef, const clang::Module*,
                          clang::SrcMgr::CharacteristicKind) override {
    if (hash.isMacroID() || tu_.place(hash) != Place::project) return;
    if (file_name == "mpi.h") {
      SourceLocation begin = name_range.getBegin(), end = name_range.getEnd();
      if (begin.isMacroID() || end.isMacroID()) {
        tu_.session.report.error(tu_.where(hash),
                                 "cannot rewrite this include of mpi.h: its name comes from a "
                                 "macro; include <pure/pure.h> instead");
        return;
      }
      unsigned length = tu_.sm.getFileOffset(end) - tu_.sm.getFileOffset(begin);
      if (name_range.isTokenRange())
        length += clang::Lexer::MeasureTokenLength(end, tu_.sm, tu_.lang);
      tu_.mpi_include(begin, length);
    } else if (file_name == "pure/mpi.h") {
      tu_.pure_mpi_include();
    } else if (file_name == "pure/compat.h") {
      tu_.session.has_compat.insert(tu_.path(hash));
    }
  }

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& md, clang::SourceRange,
                    const clang::MacroArgs*) override {
    mpi_macro(name, md);
  }
  void Defined(const clang::Token& name, const clang::MacroDefinition& md,
               clang::SourceRange) override {
    mpi_macro(name, md);
  }
  void Ifdef(SourceLocation, const clang::Token& name, const clang::MacroDefinition& md) override {
    mpi_macro(name, md);
  }
  void Ifndef(SourceLocation, const clang::Token& name, const clang::MacroDefinition& md) override {
    mpi_macro(name, md);
  }

  // The body of a user's macro is rewritten where it is written, whether or
  // not the macro is ever expanded. A name after `.` or `->` is a member
  // (status.MPI_SOURCE keeps its name in PURE_Status).
  void MacroDefined(const clang::Token& name, const clang::MacroDirective* md) override {
    if (tu_.place(name.getLocation()) != Place::project) return;
    const clang::MacroInfo* mi = md->getMacroInfo();
    llvm::ArrayRef<clang::Token> body = mi->tokens();
    for (size_t i = 0; i < body.size(); ++i) {
      const clang::IdentifierInfo* ii = body[i].getIdentifierInfo();
      if (!ii || !is_mpi_name(ii->getName())) continue;
      if (i > 0 && body[i - 1].isOneOf(clang::tok::period, clang::tok::arrow)) continue;
      tu_.macro_body_name(body[i].getLocation(), ii->getName());
    }
  }

 private:
  // A use of a macro that <mpi.h> defines (MPI_COMM_WORLD, MPI_INT, ...),
  // or a test of one (#ifdef, defined): the name of one that no header
  // defines is rewritten when Pure has it (#ifdef MPI_Send_c), reported
  // when Pure knows not to support it, and the program's own otherwise.
  void mpi_macro(const clang::Token& name, const clang::MacroDefinition& md) {
    const clang::IdentifierInfo* ii = name.getIdentifierInfo();
    if (!ii || !is_mpi_name(ii->getName())) return;
    const clang::MacroInfo* mi = md.getMacroInfo();
    if (mi) {
      if (tu_.place(mi->getDefinitionLoc()) != Place::library) return;
    } else if (!pure_name(ii->getName()) && !unsupported_reason(ii->getName())) {
      return;
    }
    tu_.mpi_reference(name.getLocation(), ii->getName());
  }

  // The translated program is compiled against Pure, not Open MPI, so code
  // under `#ifdef OPEN_MPI` (or MPICH) is dead there; parse it as such,
  // instead of reporting the implementation-specific calls inside it. Done
  // as the preprocessor leaves <mpi.h>, which defined them.
  void forget_implementation(SourceLocation at, clang::FileID left) {
    const clang::FileEntry* fe = tu_.sm.getFileEntryForID(left);
    if (!fe || llvm::sys::path::filename(fe->getName()) != "mpi.h" ||
        tu_.place(tu_.sm.getLocForStartOfFile(left)) != Place::library)
      return;
    for (const char* name : {"OPEN_MPI", "OMPI_MAJOR_VERSION", "OMPI_MINOR_VERSION",
                             "OMPI_RELEASE_VERSION", "MPICH", "MPICH2", "MPICH_VERSION",
                             "MPICH_NAME"}) {
      clang::IdentifierInfo* ii = tu_.pp.getIdentifierInfo(name);
      if (tu_.pp.isMacroDefined(ii))
        tu_.pp.appendMacroDirective(
            ii, new (tu_.pp.getPreprocessorAllocator()) clang::UndefMacroDirective(at));
    }
  }

  TuContext& tu_;
};

}  // namespace

std::unique_ptr<clang::PPCallbacks> make_preprocessor_hooks(TuContext& tu) {
  return std::make_unique<Hooks>(tu);
}

}  // namespace mpi2pure
