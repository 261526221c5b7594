use super::some_avg10;

#[test]
fn reads_the_some_line() {
    let text = "some avg10=37.48 avg60=45.29 avg300=28.17 total=705755658\n\
                full avg10=14.04 avg60=9.82 avg300=3.55 total=321254070\n";
    assert_eq!(some_avg10(text), Some(37.48));
}

#[test]
fn anything_else_is_no_reading() {
    assert_eq!(some_avg10(""), None);
    assert_eq!(
        some_avg10("full avg10=1.00 avg60=0 avg300=0 total=0\n"),
        None
    );
    assert_eq!(some_avg10("some avg10=x avg60=0\n"), None);
}
