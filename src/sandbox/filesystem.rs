//! Landlock rules for a run: what it may read, where it may write, and that it may neither use TCP nor signal
//! processes outside the run.
//!
//! Landlock grants rather than denies, so "everything but the hidden folders" is spelled out: every folder of the
//! file system that does not lead to a hidden one is readable as a whole, and the folders that do are opened up
//! one entry at a time. Writes are allowed in the run's working directory only (and to /dev/null).

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, PathFd, Ruleset, RulesetAttr, Scope, make_bitflags,
};
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// The Landlock features asked for; on an older kernel, whatever it supports of them is used.
const ABI_WANTED: ABI = ABI::V6;

/// The rules of one run, made in full before the program is started; the child only enforces them.
pub(crate) struct FsRules {
    ruleset: OwnedFd,
}

/// A folder or file a rule names, opened once for all the runs of a worker, with the rights its rule grants already
/// fitted to it and to the kernel: adding its rule to a run's ruleset is then one system call.
pub(crate) struct Grant {
    fd: PathFd,
    access: u64,
}

impl Grant {
    /// Opens `path` to grant `access` beneath it; None if it cannot be opened (it vanished since it was listed).
    pub fn open(path: &Path, access: BitFlags<AccessFs>) -> Option<Grant> {
        let fd = PathFd::new(path).ok()?;
        let access = fitted(fd.as_fd(), access)?;
        Some(Grant { fd, access })
    }
}

impl FsRules {
    /// Rules for a program working in `workdir` that may read what `grants` name (what [`readable_outside`] found
    /// for the hidden folders, and the folders of its own), with its standard output on `stdout`, and what every
    /// run may reach (`fixed`). (Its standard input needs no rule: a solution's is a copy in memory, and the
    /// problem's own tools may read anything.) Made in the view the program starts in, its folder mounted.
    ///
    /// The grants and `fixed` are opened once per worker (see [`open_all`]): only the run's folder and output are
    /// looked at here.
    pub fn new(
        workdir: &Path,
        grants: &[&[Grant]],
        fixed: &Fixed,
        stdout: std::os::fd::BorrowedFd<'_>,
    ) -> Result<FsRules, String> {
        let rules = FsRules::common(grants, fixed)?;
        let folder =
            PathFd::new(workdir).map_err(|e| format!("cannot open {}: {e}", workdir.display()))?;
        if let Some(access) = fitted(folder.as_fd(), own_folder()) {
            rules.add(folder.as_fd(), access).map_err(fail)?;
        }
        // Its own output stays reachable by name (/dev/stdout leads there), though it lies in a hidden folder. The
        // rule is made from the descriptor itself: the file's path may not even be in a root judge's run's view. (A
        // dialogue's output is a pipe, which takes no rule.)
        if is_regular_file(stdout) {
            let access = make_bitflags!(AccessFs::{WriteFile | Truncate});
            if let Some(access) = fitted(stdout, access) {
                rules.add(stdout, access).map_err(fail)?;
            }
        }
        Ok(rules)
    }

    /// Rules for every run of a solution held by the worker's `holder` (see `namespace::Holder`), which may read
    /// what `grants` name and what every run may reach (`fixed`): its folder and output are mounted in the holder
    /// for each run, and the one rule that names the holder covers them, whatever they are. Made once, for as long
    /// as what it may read stays the same; each run only enforces them.
    pub fn held(
        grants: &[&[Grant]],
        fixed: &Fixed,
        holder: std::os::fd::BorrowedFd<'_>,
    ) -> Result<FsRules, String> {
        let rules = FsRules::common(grants, fixed)?;
        let access = fitted(holder, own_folder()).ok_or("cannot look at the worker's holder")?;
        rules.add(holder, access).map_err(fail)?;
        Ok(rules)
    }

    /// A ruleset of what every run may do, and read what `grants` and `fixed` name.
    fn common(grants: &[&[Grant]], fixed: &Fixed) -> Result<FsRules, String> {
        let ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(ABI_WANTED))
            .and_then(|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp))
            .and_then(|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket))
            .and_then(|r| r.create())
            .map_err(|e| format!("cannot build the Landlock rules: {e}"))?;
        // Without a descriptor, the kernel took none of it.
        let ruleset =
            Option::<OwnedFd>::from(ruleset).ok_or("Landlock is not enforced by this kernel")?;
        let rules = FsRules { ruleset };
        for grant in grants.iter().copied().flatten().chain(&fixed.0) {
            rules.add(grant.fd.as_fd(), grant.access).map_err(fail)?;
        }
        Ok(rules)
    }

    /// Adds the rule that grants `access` (already [`fitted`]) beneath what `fd` is.
    fn add(&self, fd: std::os::fd::BorrowedFd<'_>, access: u64) -> io::Result<()> {
        /// struct landlock_path_beneath_attr, as the kernel takes it.
        #[repr(C, packed)]
        struct PathBeneathAttr {
            allowed_access: u64,
            parent_fd: i32,
        }
        const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
        let attr = PathBeneathAttr {
            allowed_access: access,
            parent_fd: fd.as_raw_fd(),
        };
        // SAFETY: landlock_add_rule reads one attribute structure of the rule type given; both descriptors are open.
        let done = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.ruleset.as_raw_fd(),
                LANDLOCK_RULE_PATH_BENEATH,
                &raw const attr,
                0u32,
            )
        };
        match done {
            -1 => Err(io::Error::last_os_error()),
            _ => Ok(()),
        }
    }

    /// Enforces the rules on the calling process and everything it starts, which may then never gain privileges by
    /// exec. Only makes system calls: safe in a child that shares the worker's memory.
    pub fn restrict(&self) -> io::Result<()> {
        // SAFETY: prctl and landlock_restrict_self take plain integers; the ruleset's descriptor is ours.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1
                || libc::syscall(
                    libc::SYS_landlock_restrict_self,
                    self.ruleset.as_raw_fd(),
                    0u32,
                ) == -1
            {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// What the rules of every run of a worker name besides the run's own folder and output, opened once: /proc (that of
/// the worker's PID namespace), /dev/shm where the namespaces made one for the runs, and the devices a run may open.
pub(crate) struct Fixed(Vec<Grant>);

impl Fixed {
    /// Opens them in the view the runs start in; `own_shm` where the namespaces made a /dev/shm of the runs' own.
    pub fn open(own_shm: bool) -> Result<Fixed, String> {
        let opened = |path: &str, access| {
            Grant::open(Path::new(path), access).ok_or_else(|| format!("cannot open {path}"))
        };
        let mut grants = vec![opened("/proc", AccessFs::from_read(ABI_WANTED))?];
        if own_shm {
            grants.push(opened("/dev/shm", own_folder())?);
        }
        // A device this machine lacks is simply not reachable.
        grants.extend(
            DEVICES
                .iter()
                .filter_map(|(device, access)| Grant::open(Path::new(device), *access)),
        );
        Ok(Fixed(grants))
    }
}

/// Why a rule could not be added.
fn fail(e: io::Error) -> String {
    format!("cannot build the Landlock rules: {e}")
}

/// The rights of `access` that a rule beneath what `fd` is may grant: on anything but a folder, only those a file
/// has (the kernel refuses the others); and only those the rulesets handle on this kernel. None where none is left,
/// or `fd` cannot be looked at.
fn fitted(fd: std::os::fd::BorrowedFd<'_>, access: BitFlags<AccessFs>) -> Option<u64> {
    static HANDLED: std::sync::OnceLock<BitFlags<AccessFs>> = std::sync::OnceLock::new();
    let handled = HANDLED.get_or_init(|| {
        AccessFs::from_all(ABI_WANTED) & AccessFs::from_all(ABI::from(kernel_abi() as i32))
    });
    // SAFETY: a zeroed stat is valid, and fstat writes only to it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above, on a descriptor we borrow.
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } == -1 {
        return None;
    }
    let access = match stat.st_mode & libc::S_IFMT == libc::S_IFDIR {
        true => access,
        false => access & FILE_ACCESS,
    } & *handled;
    (!access.is_empty()).then_some(access.bits())
}

/// The rights a rule may grant on a file that is not a folder.
const FILE_ACCESS: BitFlags<AccessFs> = make_bitflags!(AccessFs::{
    ReadFile | WriteFile | Execute | Truncate | IoctlDev | ResolveUnix
});

/// Whether a descriptor is of a regular file.
fn is_regular_file(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    // SAFETY: a zeroed stat is valid, and fstat writes only to it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above, on a descriptor we borrow.
    let done = unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } == 0;
    done && stat.st_mode & libc::S_IFMT == libc::S_IFREG
}

/// What a run may do in its own folder: anything but making device nodes.
fn own_folder() -> BitFlags<AccessFs> {
    AccessFs::from_all(ABI_WANTED) & !(AccessFs::MakeChar | AccessFs::MakeBlock)
}

/// The only devices a run may open: the rest of /dev, raw disks and terminals included, is out of its reach.
const DEVICES: &[(&str, BitFlags<AccessFs>)] = &[
    (
        "/dev/null",
        make_bitflags!(AccessFs::{ReadFile | WriteFile}),
    ),
    ("/dev/zero", make_bitflags!(AccessFs::{ReadFile})),
    (
        "/dev/full",
        make_bitflags!(AccessFs::{ReadFile | WriteFile}),
    ),
    ("/dev/random", make_bitflags!(AccessFs::{ReadFile})),
    ("/dev/urandom", make_bitflags!(AccessFs::{ReadFile})),
];

/// What no run may read, beside the hidden folders: /dev, but for the few harmless devices above; and the cgroups,
/// whose counters outlast a run (its worker's cgroup is every run's, its peak memory and page faults those of every
/// run before) and show what the runs beside it use.
const NEVER_READABLE: &[&str] = &["/dev", "/sys/fs/cgroup"];

/// Opens each path to name it in a rule, leaving out any that has vanished since it was listed: it is then simply
/// not readable. A worker keeps them open for all its runs, however many (it raises its own limit on open files
/// as far as it may, see `process::raise_open_files`); each run's child inherits them until exec, and takes its own
/// limit on open files only once its rules are in force.
pub(crate) fn open_all(paths: &[PathBuf]) -> Vec<Grant> {
    let read = AccessFs::from_read(ABI_WANTED);
    paths.iter().filter_map(|p| Grant::open(p, read)).collect()
}

/// The largest folders and files of the whole file system that neither are hidden nor hold anything hidden, nor
/// are out of reach for every run: what a solution may read.
pub(crate) fn readable_outside(hidden: &[PathBuf]) -> Vec<PathBuf> {
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .cloned()
        .chain(NEVER_READABLE.iter().map(PathBuf::from))
        .collect();
    let mut allowed = Vec::new();
    readable_around(Path::new("/"), &Hidden::new(&hidden), &mut allowed);
    allowed
}

/// The hidden paths, and every folder that holds one: looked up once per entry of every folder on the way, of
/// which there may be thousands (each test linked from elsewhere is hidden on its own).
struct Hidden {
    paths: std::collections::HashSet<PathBuf>,
    holders: std::collections::HashSet<PathBuf>,
}

impl Hidden {
    fn new(hidden: &[PathBuf]) -> Hidden {
        let holders = hidden
            .iter()
            .flat_map(|h| h.ancestors().skip(1))
            .map(Path::to_owned)
            .collect();
        Hidden {
            paths: hidden.iter().cloned().collect(),
            holders,
        }
    }
}

/// Adds to `allowed` the largest folders and files under `dir` that neither are hidden nor hold anything hidden.
fn readable_around(dir: &Path, hidden: &Hidden, allowed: &mut Vec<PathBuf>) {
    if hidden.paths.contains(dir) {
        return;
    }
    if !hidden.holders.contains(dir) {
        allowed.push(dir.to_owned());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        // A symbolic link is followed to where it points, which is judged on its own.
        if entry.file_type().is_ok_and(|t| !t.is_symlink()) {
            readable_around(&entry.path(), hidden, allowed);
        }
    }
}

/// The Landlock ABI version of the running kernel, 0 where there is none.
pub(crate) fn kernel_abi() -> i64 {
    // SAFETY: landlock_create_ruleset with a null attribute and the VERSION flag only returns a number.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    version.max(0)
}

/// Checks that the kernel enforces Landlock rules, in a throwaway child.
pub(crate) fn probe() -> Result<String, String> {
    let abi = kernel_abi();
    if abi == 0 {
        return Err(
            "the kernel has no Landlock (Linux 5.13 or later, with landlock in the lsm= list)"
                .into(),
        );
    }
    let dir = std::env::temp_dir();
    let around = open_all(&readable_outside(&[]));
    let null = std::fs::File::open("/dev/null").map_err(|e| e.to_string())?;
    let fixed = Fixed::open(false)?;
    let rules = FsRules::new(&dir, &[&around], &fixed, std::os::fd::AsFd::as_fd(&null))?;
    super::namespace::in_child(|| rules.restrict())
        .map_err(|e| format!("cannot enforce Landlock rules: {e}"))?;
    let mut detail = format!(
        "ABI {abi}: no reads of tests, answers, builds or other runs; writes only in the run's folder"
    );
    // What each later ABI adds, said either way, so an older kernel's gaps are never silent.
    let features = [
        (3, "truncating files"),
        (4, "TCP"),
        (5, "device ioctls"),
        (6, "signals to processes outside the run"),
    ];
    let (stopped, open): (Vec<_>, Vec<_>) = features.iter().partition(|(since, _)| abi >= *since);
    if !stopped.is_empty() {
        let names: Vec<&str> = stopped.iter().map(|(_, name)| *name).collect();
        detail.push_str(&format!("; no {}", names.join(", no ")));
    }
    if !open.is_empty() {
        let names: Vec<String> = open
            .iter()
            .map(|(since, name)| format!("{name} (ABI {since})"))
            .collect();
        detail.push_str(&format!(
            "; NOT stopped on this kernel: {}",
            names.join(", ")
        ));
    }
    Ok(detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_readable_but_the_hidden_folders() {
        let root = tempfile::tempdir().unwrap();
        for dir in [
            "project/problems/p",
            "project/testdata/p",
            "project/src",
            "other",
        ] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        std::fs::write(root.path().join("project/README.md"), "").unwrap();
        let hidden = [
            root.path().join("project/problems"),
            root.path().join("project/testdata"),
        ];
        let mut allowed = Vec::new();
        readable_around(root.path(), &Hidden::new(&hidden), &mut allowed);
        allowed.sort();
        let expected = ["other", "project/README.md", "project/src"].map(|p| root.path().join(p));
        assert_eq!(allowed, expected);
    }
}
