//! Java: the class to start is the one declaring `main`, whatever the file is called and whatever its package.

use crate::harness::{Judge, solution};

const SUM: &str = "
    public static void main(String[] args) {
        java.util.Scanner in = new java.util.Scanner(System.in);
        int n = in.nextInt();
        long sum = 0;
        for (int i = 0; i < n; i++) sum += in.nextLong();
        System.out.println(sum);
    }
";

#[test]
fn the_class_with_main_is_started() {
    if which::which("javac").is_err() {
        crate::harness::skip("no javac on PATH, so Java cannot be judged on this machine");
        return;
    }
    let run = Judge::fixture("basic")
        .write(
            "sub/test-hello.java",
            &format!("class Helper {{}}\nclass Main {{{SUM}}}\n"),
        )
        .write(
            "sub/packaged.java",
            &format!("package contest.a;\n\npublic class Sol {{{SUM}}}\n"),
        )
        .write("sub/no-main.java", "class Main { void run() {} }\n")
        .args(&[
            "judge",
            "sum",
            "--json",
            "--submission",
            "sub/test-hello.java",
            "--submission",
            "sub/packaged.java",
            "--submission",
            "sub/no-main.java",
        ])
        .run()
        .expect_code(1);
    let report = run.json();
    assert_eq!(
        solution(&report, "test-hello.java")["verdict"],
        "AC",
        "{report:#}"
    );
    assert_eq!(
        solution(&report, "packaged.java")["verdict"],
        "AC",
        "{report:#}"
    );
    let no_main = solution(&report, "no-main.java");
    assert_eq!(no_main["verdict"], "CE");
    assert!(
        no_main["compile"]["message"]
            .as_str()
            .unwrap()
            .contains("no class declares `public static void main"),
        "{no_main:#}"
    );
}
