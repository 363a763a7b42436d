//! Landlock rules for a run: what it may read, where it may write, and that it may neither use TCP nor signal
//! processes outside the run.
//!
//! Landlock grants rather than denies, so "everything but the hidden folders" is spelled out: every folder of the
//! file system that does not lead to a hidden one is readable as a whole, and the folders that do are opened up
//! one entry at a time. Writes are allowed in the run's working directory only (and to /dev/null).

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, make_bitflags,
};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// The Landlock features asked for; on an older kernel, whatever it supports of them is used.
const ABI_WANTED: ABI = ABI::V6;

/// The rules of one run, made in full before the program is started; the child only enforces them.
pub(crate) struct FsRules {
    ruleset: OwnedFd,
}

impl FsRules {
    /// Rules for a program working in `workdir` that may read `around` (what [`readable_outside`] found for the
    /// hidden folders) and `readable`, with its standard output on `stdout`, and what every run may reach
    /// (`fixed`). (Its standard input needs no rule: a solution's is a copy in memory, and the problem's own tools
    /// may read anything.) Made in the view the program starts in, its folder mounted.
    ///
    /// `around` and `fixed` are opened once per worker (see [`open_all`]); `readable` is opened only while its rule
    /// is added.
    pub fn new(
        workdir: &Path,
        around: &[PathFd],
        fixed: &Fixed,
        readable: &[PathBuf],
        stdout: std::os::fd::BorrowedFd<'_>,
    ) -> Result<FsRules, String> {
        let fail = |e: landlock::RulesetError| format!("cannot build the Landlock rules: {e}");
        let read = AccessFs::from_read(ABI_WANTED);
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(ABI_WANTED))
            .and_then(|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp))
            .and_then(|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket))
            .and_then(|r| r.create())
            .map_err(fail)?;
        for fd in around {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, read)).map_err(fail)?;
        }
        for path in readable {
            // Something may vanish between listing and opening; it is then simply not readable.
            if let Ok(fd) = PathFd::new(path) {
                ruleset = ruleset.add_rule(PathBeneath::new(fd, read)).map_err(fail)?;
            }
        }
        let workdir =
            PathFd::new(workdir).map_err(|e| format!("cannot open {}: {e}", workdir.display()))?;
        ruleset = ruleset
            .add_rule(PathBeneath::new(workdir, own_folder()))
            .and_then(|r| r.add_rule(PathBeneath::new(&fixed.proc, read)))
            .map_err(fail)?;
        if let Some(shm) = &fixed.shm {
            ruleset = ruleset
                .add_rule(PathBeneath::new(shm, own_folder()))
                .map_err(fail)?;
        }
        // Its own output stays reachable by name (/dev/stdout leads there), though it lies in a hidden folder. The
        // rule is made from the descriptor itself: the file's path may not even be in a root judge's run's view. (A
        // dialogue's output is a pipe, which takes no rule.)
        if is_regular_file(stdout) {
            let access = make_bitflags!(AccessFs::{WriteFile | Truncate});
            ruleset = ruleset
                .add_rule(PathBeneath::new(stdout, access))
                .map_err(fail)?;
        }
        for (fd, access) in &fixed.devices {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, *access))
                .map_err(fail)?;
        }
        // Without a descriptor, the kernel took none of it.
        let ruleset =
            Option::<OwnedFd>::from(ruleset).ok_or("Landlock is not enforced by this kernel")?;
        Ok(FsRules { ruleset })
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
pub(crate) struct Fixed {
    proc: PathFd,
    shm: Option<PathFd>,
    devices: Vec<(PathFd, BitFlags<AccessFs>)>,
}

impl Fixed {
    /// Opens them in the view the runs start in; `own_shm` where the namespaces made a /dev/shm of the runs' own.
    pub fn open(own_shm: bool) -> Result<Fixed, String> {
        let opened = |path: &str| PathFd::new(path).map_err(|e| format!("cannot open {path}: {e}"));
        Ok(Fixed {
            proc: opened("/proc")?,
            shm: own_shm.then(|| opened("/dev/shm")).transpose()?,
            // A device this machine lacks is simply not reachable.
            devices: DEVICES
                .iter()
                .filter_map(|(device, access)| Some((PathFd::new(device).ok()?, *access)))
                .collect(),
        })
    }
}

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

/// Opens each path to name it in a rule, leaving out any that has vanished since it was listed: it is then simply
/// not readable. A worker keeps them open for all its runs, however many (it raises its own limit on open files
/// as far as it may, see `process::raise_open_files`); each run's child inherits them until exec, and takes its own
/// limit on open files only once its rules are in force.
pub(crate) fn open_all(paths: &[PathBuf]) -> Vec<PathFd> {
    paths.iter().filter_map(|p| PathFd::new(p).ok()).collect()
}

/// The largest folders and files of the whole file system that neither are hidden nor hold anything hidden, nor
/// are /dev (out of reach for every run but for the few harmless devices above): what a solution may read.
pub(crate) fn readable_outside(hidden: &[PathBuf]) -> Vec<PathBuf> {
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .cloned()
        .chain([PathBuf::from("/dev")])
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
    let rules = FsRules::new(&dir, &around, &fixed, &[], std::os::fd::AsFd::as_fd(&null))?;
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
